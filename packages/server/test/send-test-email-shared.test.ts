/**
 * A test e-mail through the shared e-mail server (`email_config: {type:
 * "shared"}`): it takes the project's own delivery path, so it is listed with
 * the project's mail and, with no SMTP server at all, kept in the dev outbox;
 * the answer says where it went or why it did not.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createProject, expectSchemaErrorIncluding, turnOnProductionMode, type Project } from "./fixtures.ts";
import { createTestServer, type Auth, type TestServer } from "./harness.ts";
import { createMailingTestServer, ownSmtpConfig, recipients, type MailingServer } from "./mail-fixtures.ts";
import { startSmtpPeer, type SmtpPeer } from "./smtp-peer.ts";

/** A server whose shared SMTP server is a peer, and one with no SMTP server at all. */
let mailing: MailingServer;
let smtpServer: TestServer;
let peer: SmtpPeer;
let outboxServer: TestServer;
/** A project's own SMTP server. */
let own: SmtpPeer;

beforeAll(async () => {
  [mailing, outboxServer, own] = await Promise.all([createMailingTestServer(), createTestServer(), startSmtpPeer()]);
  ({ server: smtpServer, smtp: peer } = mailing);
});
afterAll(async () => {
  await Promise.all([mailing?.close(), outboxServer?.close(), own?.close()]);
});

function sendTest(server: TestServer, as: Auth, body: unknown) {
  return server.request("/internal/send-test-email", { method: "POST", as, body });
}

async function listed(server: TestServer, p: Project, path: "/internal/emails" | "/internal/emails/outbox") {
  const res = await server.request(path, { as: p.ownerAdmin });
  expect(res.status, res.text).toBe(200);
  return res.body.items as { id: string; to: string[]; subject: string; status?: string; html?: string; text?: string | null }[];
}

describe("POST /internal/send-test-email with the shared e-mail server", () => {
  it("without any SMTP server, keeps the mail in the dev outbox, rendered, and says so", async () => {
    const p = await createProject(outboxServer);
    const res = await sendTest(outboxServer, p.ownerAdmin, { recipient_email: "owner@example.com", email_config: { type: "shared" } });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ success: true, delivered_to: "outbox" });
    const [sent] = await listed(outboxServer, p, "/internal/emails");
    expect(sent).toMatchObject({ to: ["owner@example.com"], subject: "Test e-mail", status: "outbox" });
    const [kept] = await listed(outboxServer, p, "/internal/emails/outbox");
    expect(kept).toMatchObject({ id: sent!.id, subject: "Test e-mail" });
    // Fixed words through the operator's server: nothing of the project's own text.
    expect(kept!.text).not.toContain("Test project");
    expect(kept!.html).toContain("This is a test e-mail: the project");
    expect(kept!.text).toContain("This is a test e-mail: the project");
  });

  it("in production mode without any SMTP server, says it was not delivered (the outbox keeps no body there)", async () => {
    const p = await createProject(outboxServer);
    await turnOnProductionMode(outboxServer, p);
    const res = await sendTest(outboxServer, p.ownerAdmin, { recipient_email: "owner@example.com", email_config: { type: "shared" } });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      success: false,
      error_message: "This server has no SMTP server: in production mode, such mail is not delivered.",
    });
  });

  it("with the server's shared SMTP server, delivers it there in the project's name", async () => {
    const p = await createProject(smtpServer);
    const res = await sendTest(smtpServer, p.ownerAdmin, { recipient_email: "shared-check@example.com", email_config: { type: "shared" } });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ success: true, delivered_to: "smtp" });
    const mail = await peer.waitFor((m) => recipients(m).includes("shared-check@example.com"));
    expect(mail.subject).toBe("Test e-mail");
    expect(mail.from?.value[0]).toMatchObject({ name: "Test project", address: "noreply@example.com" });
    const [sent] = await listed(smtpServer, p, "/internal/emails");
    expect(sent).toMatchObject({ to: ["shared-check@example.com"], status: "sent" });
    expect(await listed(smtpServer, p, "/internal/emails/outbox")).toEqual([]);
  });

  it("tries the shared server even while the project's saved choice is its own server", async () => {
    const p = await createProject(smtpServer, undefined, {
      email_config: ownSmtpConfig(own.port, { name: "Own", email: "own@example.com" }),
    });
    const res = await sendTest(smtpServer, p.ownerAdmin, { recipient_email: "not-own@example.com", email_config: { type: "shared" } });
    expect(res.body).toEqual({ success: true, delivered_to: "smtp" });
    await peer.waitFor((m) => recipients(m).includes("not-own@example.com"));
    expect(own.inbox.some((m) => recipients(m).includes("not-own@example.com"))).toBe(false);
  });

  it("answers with the SMTP server's refusal, and lists the mail as failed", async () => {
    const p = await createProject(smtpServer);
    peer.refuseWith = 550;
    try {
      const res = await sendTest(smtpServer, p.ownerAdmin, { recipient_email: "refused@example.com", email_config: { type: "shared" } });
      expect(res.status, res.text).toBe(200);
      expect(res.body.success).toBe(false);
      expect(res.body.error_message).toMatch(/550|refus|unavailable/i);
      expect(res.body.delivered_to).toBeUndefined();
    } finally {
      peer.refuseWith = null;
    }
    const [sent] = await listed(smtpServer, p, "/internal/emails");
    expect(sent).toMatchObject({ to: ["refused@example.com"], status: "failed" });
  });

  it("a temporary refusal (451) is final for a test: failed, and never sent again later through the saved settings", async () => {
    const p = await createProject(smtpServer);
    peer.refuseWith = 451;
    try {
      const res = await sendTest(smtpServer, p.ownerAdmin, { recipient_email: "later@example.com", email_config: { type: "shared" } });
      expect(res.status, res.text).toBe(200);
      expect(res.body.success).toBe(false);
    } finally {
      peer.refuseWith = null;
    }
    const [sent] = await listed(smtpServer, p, "/internal/emails");
    expect(sent).toMatchObject({ to: ["later@example.com"], status: "failed" });
    // The queue finds nothing of it to retry.
    await smtpServer.instance.services.emails.flush();
    expect((await listed(smtpServer, p, "/internal/emails"))[0]).toMatchObject({ id: sent!.id, status: "failed" });
  });

  it("refuses bad input with the schema error and sends nothing", async () => {
    const p = await createProject(outboxServer);
    const missing = await sendTest(outboxServer, p.ownerAdmin, { email_config: { type: "shared" } });
    expectSchemaErrorIncluding(missing, "body.recipient_email must be defined");
    const bad = await sendTest(outboxServer, p.ownerAdmin, { recipient_email: "no at sign", email_config: { type: "shared" } });
    expectSchemaErrorIncluding(bad, "body.recipient_email must be a valid email");
    const extra = await sendTest(outboxServer, p.ownerAdmin, {
      recipient_email: "x@example.com",
      email_config: { type: "shared", host: "127.0.0.1" },
    });
    expectSchemaErrorIncluding(extra, "body.email_config contains unknown properties: host");
    expect(await listed(outboxServer, p, "/internal/emails")).toEqual([]);
    expect(await listed(outboxServer, p, "/internal/emails/outbox")).toEqual([]);
  });

  it("is for admins only: client and server access are refused and nothing is sent", async () => {
    const p = await createProject(outboxServer);
    for (const as of [p.client, p.server]) {
      const res = await sendTest(outboxServer, as, { recipient_email: "x@example.com", email_config: { type: "shared" } });
      expect(res.status).toBe(401);
      expect(res.headers.get("x-stack-known-error")).toBe("INSUFFICIENT_ACCESS_TYPE");
    }
    expect(await listed(outboxServer, p, "/internal/emails")).toEqual([]);
  });

  it("counts against the project's test e-mail limit", async () => {
    const p = await createProject(outboxServer);
    const send = () => sendTest(outboxServer, p.ownerAdmin, { recipient_email: "limit@example.com", email_config: { type: "shared" } });
    for (let i = 0; i < 10; i++) expect((await send()).status).toBe(200);
    const limited = await send();
    expect(limited.status).toBe(429);
    expect(limited.text).toMatch(/Too many test e-mails/);
    expect(await listed(outboxServer, p, "/internal/emails")).toHaveLength(10);
  });
});
