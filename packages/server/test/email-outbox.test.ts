/**
 * The dev outbox's bodies: mail never delivered (no SMTP server) keeps its
 * rendered HTML and text for its project's admins, for a day and at most the
 * last 100; delivered or failed mail keeps none, nor does a project in
 * production mode, and no project sees another's.
 */
import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sentEmails } from "../src/db/schema/index.ts";
import { OUTBOX_KEPT_MILLIS, OUTBOX_KEPT_PER_PROJECT } from "../src/domain/emails/outbox.ts";
import { insertQueuedEmail } from "../src/domain/emails/queue.ts";
import { createProject, turnOnProductionMode, type Project } from "./fixtures.ts";
import { createTestServer, type Auth, type TestServer } from "./harness.ts";
import { startSmtpPeer, type SmtpPeer } from "./smtp-peer.ts";
import { ownSmtpConfig } from "./mail-fixtures.ts";

let peer: SmtpPeer;
let outboxServer: TestServer;
let smtpServer: TestServer;
let project: Project;

beforeAll(async () => {
  peer = await startSmtpPeer();
  [outboxServer, smtpServer] = await Promise.all([
    createTestServer(),
    createTestServer({
      email: { host: "127.0.0.1", port: peer.port, username: "", password: "", senderEmail: "noreply@example.com", senderName: null },
    }),
  ]);
  project = await createProject(outboxServer);
});
afterAll(async () => {
  await Promise.all([outboxServer?.close(), smtpServer?.close()]);
  await peer?.close();
});

interface OutboxItem {
  id: string;
  to: string[];
  subject: string;
  sent_at_millis: number;
  html: string;
  text: string | null;
}

async function outbox(server: TestServer, as: Auth): Promise<OutboxItem[]> {
  const res = await server.request("/internal/emails/outbox", { as });
  expect(res.status, res.text).toBe(200);
  return res.body.items as OutboxItem[];
}

async function send(server: TestServer, projectId: string, subject: string): Promise<string> {
  const id = await insertQueuedEmail(
    server.instance.services.db,
    projectId,
    {
      to: ["ada@example.com"],
      subject,
      html: `<p><a href="https://example.com/handler/magic-link-callback?code=${subject}">Sign in</a></p>`,
      text: `Sign in: ${subject}`,
    },
    server.clock.date(),
  );
  await server.instance.services.emails.flush();
  return id;
}

describe("the dev outbox", () => {
  it("keeps the rendered bodies of mail never delivered, for the project's admins", async () => {
    const id = await send(outboxServer, project.id, "outbox-one");
    for (const as of [project.ownerAdmin, project.admin]) {
      const [mail] = (await outbox(outboxServer, as)).filter((m) => m.id === id);
      expect(mail).toMatchObject({ to: ["ada@example.com"], subject: "outbox-one", text: "Sign in: outbox-one" });
      expect(mail!.html).toContain('href="https://example.com/handler/magic-link-callback?code=outbox-one"');
      expect(mail!.sent_at_millis).toBeGreaterThan(Date.now() - 60_000);
    }
    const listed = await outboxServer.request("/internal/emails", { as: project.ownerAdmin });
    expect(listed.body.items.find((m: { id: string }) => m.id === id)).toMatchObject({ status: "outbox", error: null });
  });

  it("is for admins only", async () => {
    for (const as of [project.client, project.server]) {
      const res = await outboxServer.request("/internal/emails/outbox", { as });
      expect(res.status).toBe(401);
      expect(res.headers.get("x-stack-known-error")).toBe("INSUFFICIENT_ACCESS_TYPE");
    }
  });

  it("never shows one project's mail to another", async () => {
    const other = await createProject(outboxServer);
    const id = await send(outboxServer, project.id, "not-for-the-other");
    expect((await outbox(outboxServer, other.ownerAdmin)).map((m) => m.id)).not.toContain(id);
    expect((await outbox(outboxServer, project.ownerAdmin)).map((m) => m.id)).toContain(id);
  });

  it("keeps no body of mail delivered through an SMTP server", async () => {
    const p = await createProject(smtpServer);
    const id = await send(smtpServer, p.id, "delivered");
    await peer.waitFor((m) => m.subject === "delivered");
    expect(await outbox(smtpServer, p.ownerAdmin)).toEqual([]);
    const [row] = await smtpServer.instance.services.db.select().from(sentEmails).where(eq(sentEmails.id, id));
    expect(row).toMatchObject({ status: "sent", html: "", textBody: null });
    const listed = await smtpServer.request("/internal/emails", { as: p.ownerAdmin });
    expect(listed.body.items[0]).toMatchObject({ id, status: "sent" });
  });

  it("keeps no body of mail the SMTP server refused for good, and does not list it", async () => {
    const p = await createProject(smtpServer);
    peer.refuseWith = 550;
    try {
      const id = await send(smtpServer, p.id, "refused");
      const [row] = await smtpServer.instance.services.db.select().from(sentEmails).where(eq(sentEmails.id, id));
      expect(row).toMatchObject({ status: "failed", html: "", textBody: null });
    } finally {
      peer.refuseWith = null;
    }
    expect(await outbox(smtpServer, p.ownerAdmin)).toEqual([]);
  });

  it("never holds mail of a project with its own SMTP server, even on a server without a shared one", async () => {
    const p = await createProject(outboxServer, undefined, {
      email_config: ownSmtpConfig(peer.port),
    });
    const id = await send(outboxServer, p.id, "own-smtp");
    await peer.waitFor((m) => m.subject === "own-smtp");
    expect(await outbox(outboxServer, p.ownerAdmin)).toEqual([]);
    const [row] = await outboxServer.instance.services.db.select().from(sentEmails).where(eq(sentEmails.id, id));
    expect(row).toMatchObject({ status: "sent", html: "" });
  });

  it("keeps no body for a project in production mode: its mail is listed, not readable", async () => {
    const p = await createProject(outboxServer);
    await turnOnProductionMode(outboxServer, p);
    const id = await send(outboxServer, p.id, "production");
    const [row] = await outboxServer.instance.services.db.select().from(sentEmails).where(eq(sentEmails.id, id));
    expect(row).toMatchObject({ status: "outbox", html: "", textBody: null });
    expect(await outbox(outboxServer, p.ownerAdmin)).toEqual([]);
    const listed = await outboxServer.request("/internal/emails", { as: p.ownerAdmin });
    expect(listed.body.items[0]).toMatchObject({ id, subject: "production", status: "outbox" });
  });

  it("hides mail older than a day before housekeeping has run", async () => {
    const db = outboxServer.instance.services.db;
    const p = await createProject(outboxServer);
    const fresh = await send(outboxServer, p.id, "fresh");
    const old = await send(outboxServer, p.id, "stale");
    const dayAgo = new Date(Date.now() - OUTBOX_KEPT_MILLIS - 60_000);
    await db.update(sentEmails).set({ sentAt: dayAgo }).where(eq(sentEmails.id, old));
    expect((await outbox(outboxServer, p.ownerAdmin)).map((m) => m.id)).toEqual([fresh]);
    // The body is still stored: only the read hides it.
    const [row] = await db.select().from(sentEmails).where(eq(sentEmails.id, old));
    expect(row!.html).toContain("stale");
    await outboxServer.instance.services.housekeeping.run();
    const [after] = await db.select().from(sentEmails).where(eq(sentEmails.id, old));
    expect(after!.html).toBe("");
  });

  it("housekeeping empties bodies older than a day and beyond the last 100 of a project", async () => {
    const db = outboxServer.instance.services.db;
    const p = await createProject(outboxServer);
    const old = await send(outboxServer, p.id, "a-day-old");
    const dayAgo = new Date(Date.now() - OUTBOX_KEPT_MILLIS - 60_000);
    await db.update(sentEmails).set({ sentAt: dayAgo, createdAt: dayAgo }).where(eq(sentEmails.id, old));
    const base = Date.now() - 60_000;
    const many = await db
      .insert(sentEmails)
      .values(
        Array.from({ length: OUTBOX_KEPT_PER_PROJECT + 1 }, (_, i) => ({
          projectId: p.id,
          to: ["ada@example.com"],
          subject: `many-${i}`,
          html: `<p>${i}</p>`,
          status: "outbox",
          sentAt: new Date(base + i),
          createdAt: new Date(base + i),
        })),
      )
      .returning({ id: sentEmails.id, subject: sentEmails.subject });
    const result = await outboxServer.instance.services.housekeeping.run();
    expect(result).toMatchObject({ oldOutboxBodies: 2 });
    const rows = await db
      .select({ subject: sentEmails.subject, html: sentEmails.html })
      .from(sentEmails)
      .where(inArray(sentEmails.id, [old, ...many.map((m) => m.id)]));
    const emptied = rows.filter((r) => r.html === "").map((r) => r.subject);
    expect(emptied.sort()).toEqual(["a-day-old", "many-0"]);
    const listed = await outbox(outboxServer, p.ownerAdmin);
    expect(listed).toHaveLength(OUTBOX_KEPT_PER_PROJECT);
    expect(listed[0]!.subject).toBe(`many-${OUTBOX_KEPT_PER_PROJECT}`);
  });
});
