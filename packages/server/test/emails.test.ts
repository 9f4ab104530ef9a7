/**
 * E-mail delivery through a real SMTP peer: the shared server or the
 * project's own, retries and recorded failures, the dev outbox, the admin
 * list and the test-e-mail endpoint.
 */
import { eq, sql } from "drizzle-orm";
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jobs, sentEmails } from "../src/db/schema/index.ts";
import { INTERRUPTED_SEND_ERROR, MAX_SEND_ATTEMPTS, insertQueuedEmail, retryDelaySeconds } from "../src/domain/emails/queue.ts";
import { createProject, expectSchemaErrorIncluding, patchProjectConfig, type Project } from "./fixtures.ts";
import { createTestServer, type TestServer } from "./harness.ts";
import { startSmtpPeer, type SmtpPeer } from "./smtp-peer.ts";
import { ownSmtpConfig } from "./mail-fixtures.ts";

let shared: SmtpPeer;
let own: SmtpPeer;
let server: TestServer;
let outboxServer: TestServer;
let project: Project;

beforeAll(async () => {
  [shared, own] = await Promise.all([startSmtpPeer(), startSmtpPeer()]);
  [server, outboxServer] = await Promise.all([
    createTestServer({
      email: { host: "127.0.0.1", port: shared.port, username: "", password: "", senderEmail: "noreply@example.com", senderName: null },
    }),
    createTestServer(),
  ]);
  project = await createProject(server);
});
afterAll(async () => {
  await Promise.all([server?.close(), outboxServer?.close()]);
  await Promise.all([shared?.close(), own?.close()]);
});

const emails = (s: TestServer) => s.instance.services.emails;

/** What a replica does when it takes a message's job: claims it for five minutes (its lease) and marks it being sent. */
async function claimElsewhere(s: TestServer, id: string) {
  const db = s.instance.services.db;
  await db
    .update(jobs)
    .set({ status: "running", claimedBy: "another-replica", claimedUntil: new Date(s.clock.now() + 5 * 60_000), attempts: 1 })
    .where(sql`${jobs.payload}->>'email_id' = ${id}`);
  await db.update(sentEmails).set({ status: "sending", claimedAt: s.clock.date() }).where(eq(sentEmails.id, id));
}
const message = (subject: string) => ({ to: ["ada@example.com"], subject, html: `<p>${subject}</p>`, text: subject });

async function listed(s: TestServer, p: Project) {
  const res = await s.request("/internal/emails", { as: p.ownerAdmin });
  expect(res.status, res.text).toBe(200);
  return res.body.items as { id: string; to: string[]; subject: string; sent_at_millis: number | null; error: string | null }[];
}

describe("delivery", () => {
  it("sends through the shared SMTP server, in the project's name", async () => {
    const id = await insertQueuedEmail(server.instance.services.db, project.id, message("Hello from the queue"), server.clock.date());
    await emails(server).flush();
    const mail = await shared.waitFor((m) => m.subject === "Hello from the queue");
    expect(mail.from?.value[0]).toMatchObject({ address: "noreply@example.com" });
    expect(mail.from?.value[0]?.name).toBeTruthy();
    expect(mail.to && !Array.isArray(mail.to) ? mail.to.value[0]?.address : null).toBe("ada@example.com");
    expect(mail.html).toContain("<p>Hello from the queue</p>");
    expect(mail.text?.trim()).toBe("Hello from the queue");
    const [row] = (await listed(server, project)).filter((e) => e.id === id);
    expect(row).toMatchObject({ to: ["ada@example.com"], subject: "Hello from the queue", error: null });
    expect(row!.sent_at_millis).toBeGreaterThan(server.clock.now() - 60_000);
  });

  it("uses the project's own SMTP server when its email_config is standard", async () => {
    const p = await createProject(server);
    await patchProjectConfig(server, p, {
      email_config: ownSmtpConfig(own.port),
    });
    await insertQueuedEmail(server.instance.services.db, p.id, message("Through the project's server"), server.clock.date());
    await emails(server).flush();
    const mail = await own.waitFor((m) => m.subject === "Through the project's server");
    expect(mail.from?.value[0]).toMatchObject({ name: "Shop", address: "shop@example.com" });
    expect(shared.inbox.some((m) => m.subject === "Through the project's server")).toBe(false);
  });

  it("retries a message refused for now (4xx) with back-off, then records the failure; nothing is lost", async () => {
    const db = server.instance.services.db;
    shared.refuseWith = 451;
    try {
      const id = await insertQueuedEmail(db, project.id, message("Refused for now"), server.clock.date());
      await emails(server).flush();
      const row = async () => (await db.select().from(sentEmails).where(eq(sentEmails.id, id)))[0]!;
      expect(await row()).toMatchObject({ status: "queued", attempts: 1 });
      expect((await row()).error).toMatch(/451|Try again later/);
      expect((await row()).nextAttemptAt.getTime()).toBeGreaterThan(server.clock.now() + 20_000);
      // Each run on a clock moved ahead by the back-offs so far (and back after: the admins' tokens stay fresh).
      let ahead = 0;
      for (let attempt = 2; attempt <= MAX_SEND_ATTEMPTS; attempt++) {
        ahead += retryDelaySeconds(attempt - 1) * 1000;
        // Not due yet: a run five seconds before the back-off ends leaves it alone.
        await server.clock.ahead(ahead - 5000, () => emails(server).flush());
        expect((await row()).attempts).toBe(attempt - 1);
        await server.clock.ahead(ahead, () => emails(server).flush());
        expect((await row()).attempts).toBe(attempt);
      }
      expect(await row()).toMatchObject({ status: "failed", attempts: MAX_SEND_ATTEMPTS, sentAt: null });
      // A final state keeps no body: mail may carry live codes.
      expect(await row()).toMatchObject({ html: "", textBody: null });
      const [shown] = (await listed(server, project)).filter((e) => e.id === id);
      expect(shown!.error).toMatch(/451|Try again later/);
      expect(shown!.sent_at_millis).toBeNull();
    } finally {
      shared.refuseWith = null;
    }
  });

  it("does not retry a message refused for good (5xx)", async () => {
    const db = server.instance.services.db;
    shared.refuseWith = 550;
    try {
      const id = await insertQueuedEmail(db, project.id, message("Refused for good"), server.clock.date());
      await emails(server).flush();
      const [row] = await db.select().from(sentEmails).where(eq(sentEmails.id, id));
      expect(row).toMatchObject({ status: "failed", attempts: 1 });
      expect(row!.error).toMatch(/550|Mailbox unavailable/);
    } finally {
      shared.refuseWith = null;
    }
  });

  it("leaves alone a message another replica is sending right now", async () => {
    const db = server.instance.services.db;
    const id = await insertQueuedEmail(db, project.id, message("Being sent elsewhere"), server.clock.date());
    await claimElsewhere(server, id);
    await emails(server).flush();
    const [row] = await db.select().from(sentEmails).where(eq(sentEmails.id, id));
    expect(row).toMatchObject({ status: "sending", attempts: 0 });
    expect(shared.inbox.some((m) => m.subject === "Being sent elsewhere")).toBe(false);
  });

  it("takes over a message another replica claimed and never finished", async () => {
    const db = server.instance.services.db;
    const id = await insertQueuedEmail(db, project.id, message("Claimed then abandoned"), server.clock.date());
    await claimElsewhere(server, id);
    // Five minutes without a word from the replica that claimed it: the claim is stale.
    await server.clock.ahead(4 * 60_000, () => emails(server).flush());
    expect(shared.inbox.some((m) => m.subject === "Claimed then abandoned")).toBe(false);
    await server.clock.ahead(5 * 60_000 + 1000, () => emails(server).flush());
    await shared.waitFor((m) => m.subject === "Claimed then abandoned");
    const [row] = await db.select().from(sentEmails).where(eq(sentEmails.id, id));
    expect(row).toMatchObject({ status: "sent", html: "" });
  });

  it("records as failed a message sent at once whose server stopped mid-send; leaves alone one a job will take up", async () => {
    const db = server.instance.services.db;
    const started = server.clock.date();
    // A test send (no job) cut off by a crash: its row says "sending" and nothing will end it.
    const [cutOff] = await db
      .insert(sentEmails)
      .values({
        projectId: project.id,
        to: ["ada@example.com"],
        subject: "Cut off",
        html: "<p>code 123456</p>",
        textBody: "code 123456",
        status: "sending",
        attempts: 1,
        claimedAt: started,
        claimToken: randomUUID(),
        createdAt: started,
        nextAttemptAt: started,
      })
      .returning({ id: sentEmails.id });
    const queued = await insertQueuedEmail(db, project.id, message("Held by a live job"), started);
    await claimElsewhere(server, queued);
    // Within the lease nothing is touched: the send may still be under way.
    await server.clock.ahead(4 * 60_000, async () =>
      expect((await server.instance.services.housekeeping.run()) as Record<string, number>).toMatchObject({ interruptedSends: 0 }),
    );
    // Past it, the job of the queued message is still "running" (its replica is taken for dead only by the runner).
    const result = (await server.clock.ahead(6 * 60_000, () => server.instance.services.housekeeping.run())) as Record<string, number>;
    expect(result.interruptedSends).toBe(1);
    const [failed] = await db.select().from(sentEmails).where(eq(sentEmails.id, cutOff!.id));
    expect(failed).toMatchObject({ status: "failed", error: INTERRUPTED_SEND_ERROR, html: "", textBody: null, claimToken: null });
    const [held] = await db.select().from(sentEmails).where(eq(sentEmails.id, queued));
    expect(held).toMatchObject({ status: "sending" });
    expect((await listed(server, project)).find((m) => m.id === cutOff!.id)).toMatchObject({ error: INTERRUPTED_SEND_ERROR });
  });

  it("without any SMTP server, keeps the message in the dev outbox and logs it", async () => {
    const p = await createProject(outboxServer);
    await insertQueuedEmail(outboxServer.instance.services.db, p.id, message("Only in the outbox"), outboxServer.clock.date());
    await emails(outboxServer).flush();
    const [row] = await listed(outboxServer, p);
    expect(row).toMatchObject({ subject: "Only in the outbox", error: null });
    expect(row!.sent_at_millis).not.toBeNull();
    expect(outboxServer.logs.some((l) => l.subject === "Only in the outbox" && String(l.msg).includes("dev outbox"))).toBe(true);
  });

  it("lists only the project's own e-mails, to its admins only", async () => {
    const other = await createProject(server);
    await insertQueuedEmail(server.instance.services.db, project.id, message("Not for the other project"), server.clock.date());
    expect((await listed(server, other)).map((e) => e.subject)).not.toContain("Not for the other project");
    const asClient = await server.request("/internal/emails", { as: project.client });
    expect(asClient.status).toBe(401);
    expect(asClient.headers.get("x-stack-known-error")).toBe("INSUFFICIENT_ACCESS_TYPE");
  });

  it("survives a burst: 30 messages queued at once all arrive once", async () => {
    const db = server.instance.services.db;
    const subjects = Array.from({ length: 30 }, (_, i) => `Burst ${i}`);
    await Promise.all(subjects.map((s) => insertQueuedEmail(db, project.id, message(s), server.clock.date())));
    await Promise.all([emails(server).flush(), emails(server).flush()]);
    for (const s of subjects) await shared.waitFor((m) => m.subject === s);
    expect(shared.inbox.filter((m) => m.subject?.startsWith("Burst ")).length).toBe(30);
    const remaining = await db.execute(sql`select count(*)::int as n from sent_emails where status <> 'sent' and subject like 'Burst %'`);
    expect(JSON.stringify(remaining)).toContain('"n":0');
  });
});

describe("private SMTP hosts (LATCHKEY_SMTP_ALLOW_PRIVATE_HOSTS unset)", () => {
  let strict: TestServer;
  beforeAll(async () => {
    strict = await createTestServer({
      smtpAllowPrivateHosts: false,
      // The operator's own shared server is trusted wherever it is.
      email: { host: "127.0.0.1", port: shared.port, username: "", password: "", senderEmail: "noreply@example.com", senderName: null },
    });
  });
  afterAll(() => strict?.close());

  it("refuses a project's own SMTP server on a private address, for good, and says why", async () => {
    const p = await createProject(strict);
    await patchProjectConfig(strict, p, {
      email_config: ownSmtpConfig(own.port, { name: "Probe", email: "probe@example.com" }),
    });
    const id = await insertQueuedEmail(strict.instance.services.db, p.id, message("Into the private network"), strict.clock.date());
    await emails(strict).flush();
    const [row] = await strict.instance.services.db.select().from(sentEmails).where(eq(sentEmails.id, id));
    expect(row).toMatchObject({ status: "failed", attempts: 1 });
    expect(row!.error).toMatch(/private or local network/);
    expect(own.inbox.some((m) => m.subject === "Into the private network")).toBe(false);
  });

  it("refuses a test e-mail to a private address without connecting", async () => {
    const p = await createProject(strict);
    const res = await strict.request("/internal/send-test-email", {
      method: "POST",
      as: p.ownerAdmin,
      body: {
        recipient_email: "probe@example.com",
        email_config: { host: "127.0.0.1", port: own.port, username: "", password: "", sender_name: "P", sender_email: "p@example.com" },
      },
    });
    expect(res.body.success).toBe(false);
    expect(res.body.error_message).toMatch(/private or local network/);
    expect(own.inbox.some((m) => m.to !== undefined && !Array.isArray(m.to) && m.to.value[0]?.address === "probe@example.com")).toBe(false);
  });

  it("still sends through the operator's shared server on loopback", async () => {
    const p = await createProject(strict);
    await insertQueuedEmail(strict.instance.services.db, p.id, message("Shared server is trusted"), strict.clock.date());
    await emails(strict).flush();
    await shared.waitFor((m) => m.subject === "Shared server is trusted");
  });
});

describe("POST /internal/send-test-email", () => {
  const config = (port: number) => ({
    host: "127.0.0.1",
    port,
    username: "",
    password: "",
    sender_name: "Tester",
    sender_email: "tester@example.com",
  });

  it("sends through the given settings and reports success", async () => {
    const res = await server.request("/internal/send-test-email", {
      method: "POST",
      as: project.ownerAdmin,
      body: { recipient_email: "check@example.com", email_config: config(own.port) },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ success: true });
    const mail = await own.waitFor((m) => m.to !== undefined && !Array.isArray(m.to) && m.to.value[0]?.address === "check@example.com");
    expect(mail.from?.value[0]).toMatchObject({ name: "Tester", address: "tester@example.com" });
  });

  it("reports what went wrong when the SMTP server cannot be reached", async () => {
    const closed = await startSmtpPeer();
    const port = closed.port;
    await closed.close();
    const res = await server.request("/internal/send-test-email", {
      method: "POST",
      as: project.ownerAdmin,
      body: { recipient_email: "check@example.com", email_config: config(port) },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.success).toBe(false);
    expect(res.body.error_message).toMatch(/ECONNREFUSED|connect/i);
  });

  it("allows 10 test e-mails per project every 10 minutes, then answers 429 with Retry-After", async () => {
    const p = await createProject(server);
    const closed = await startSmtpPeer();
    const port = closed.port;
    await closed.close();
    const send = () =>
      server.request("/internal/send-test-email", {
        method: "POST",
        as: p.ownerAdmin,
        body: { recipient_email: "limit@example.com", email_config: config(port) },
      });
    for (let i = 0; i < 10; i++) expect((await send()).status).toBe(200);
    const limited = await send();
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(limited.text).toMatch(/Too many test e-mails/);
    // Another project is not affected.
    const other = await createProject(server);
    const res = await server.request("/internal/send-test-email", {
      method: "POST",
      as: other.ownerAdmin,
      body: { recipient_email: "limit@example.com", email_config: config(port) },
    });
    expect(res.status).toBe(200);
  });

  it("validates its input and is for admins only", async () => {
    const bad = await server.request("/internal/send-test-email", {
      method: "POST",
      as: project.ownerAdmin,
      body: { recipient_email: "not an e-mail", email_config: { ...config(25), port: 70000 } },
    });
    expectSchemaErrorIncluding(bad, "body.recipient_email must be a valid email");
    expectSchemaErrorIncluding(bad, "body.email_config.port must be less than or equal to 65535");
    const asServer = await server.request("/internal/send-test-email", {
      method: "POST",
      as: project.server,
      body: { recipient_email: "check@example.com", email_config: config(own.port) },
    });
    expect(asServer.headers.get("x-stack-known-error")).toBe("INSUFFICIENT_ACCESS_TYPE");
  });
});
