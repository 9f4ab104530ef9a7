/**
 * For suites whose flows mail codes: a test server whose shared SMTP server
 * is a real SMTP peer on loopback, and helpers to read the code out of what
 * arrived.
 */
import type { ParsedMail } from "mailparser";
import { expect } from "vitest";
import type { ServerConfig } from "../src/config.ts";
import { createProject, type Project } from "./fixtures.ts";
import { createTestServer, type TestServer } from "./harness.ts";
import { startSmtpPeer, type SmtpPeer } from "./smtp-peer.ts";

export const CALLBACK_URL = "http://localhost:3000/handler/callback";

export interface MailingServer {
  server: TestServer;
  smtp: SmtpPeer;
  /** The next message to `to` (optionally whose subject matches), sent by the server's queue. */
  mailTo(to: string, subject?: RegExp): Promise<ParsedMail>;
  close(): Promise<void>;
}

export async function createMailingTestServer(overrides: Partial<ServerConfig> = {}): Promise<MailingServer> {
  const smtp = await startSmtpPeer();
  const server = await createTestServer({
    email: { host: "127.0.0.1", port: smtp.port, username: "", password: "", senderEmail: "noreply@example.com", senderName: null },
    ...overrides,
  });
  const seen = new Set<ParsedMail>();
  return {
    server,
    smtp,
    async mailTo(to, subject) {
      await server.instance.services.emails.flush();
      const mail = await smtp.waitFor(
        (m) => !seen.has(m) && recipients(m).includes(to.toLowerCase()) && (!subject || subject.test(m.subject ?? "")),
      );
      seen.add(mail);
      return mail;
    },
    async close() {
      await server.close();
      await smtp.close();
    },
  };
}

/**
 * A mailing test server and one project on it, as the mail suites start (in beforeAll): `project` is the
 * project's config; `warm` loads the renderer meanwhile (warmRenderer), for suites that render.
 */
export async function mailingWithProject(
  options: { project?: Record<string, unknown>; warm?: boolean } = {},
): Promise<{ mailing: MailingServer; server: TestServer; project: Project }> {
  const [mailing] = await Promise.all([createMailingTestServer(), options.warm ? warmRenderer() : undefined]);
  try {
    return { mailing, server: mailing.server, project: await createProject(mailing.server, undefined, options.project) };
  } catch (error) {
    await mailing.close();
    throw error;
  }
}

export function recipients(mail: ParsedMail): string[] {
  const to = Array.isArray(mail.to) ? mail.to : mail.to ? [mail.to] : [];
  return to.flatMap((a) => a.value.map((v) => (v.address ?? "").toLowerCase()));
}

/** The link in a mailed message that points at `callbackUrl`, and the code it carries. */
export function linkIn(mail: ParsedMail, callbackUrl = CALLBACK_URL): { link: URL; code: string } {
  const text = mail.text ?? "";
  const found = text.match(/https?:\/\/\S+/g)?.find((u) => u.startsWith(callbackUrl));
  expect(found, `no link to ${callbackUrl} in:\n${text}`).toBeTruthy();
  const link = new URL(found!);
  const code = link.searchParams.get("code");
  expect(code).toMatch(/^[0-9a-hjkmnp-tv-z]{45}$/);
  return { link, code: code! };
}

/** A project's own SMTP server on this machine (a peer at `port`), as its `email_config`. */
export function ownSmtpConfig(port: number, sender: { name: string; email: string } = { name: "Shop", email: "shop@example.com" }) {
  return {
    type: "standard" as const,
    host: "127.0.0.1",
    port,
    username: "",
    password: "",
    sender_name: sender.name,
    sender_email: sender.email,
  };
}

/**
 * Loads the e-mail sandbox's runtime now (seconds, longer on a loaded machine), in a hook, so the first test
 * that renders does not spend its own time budget on it.
 */
export async function warmRenderer(): Promise<void> {
  const { renderEmail } = await import("../src/domain/emails/render/render.ts");
  await renderEmail({
    templateSource: "export function EmailTemplate() { return <p>warm</p>; }",
    themeSource: null,
    props: { user: null, project: { displayName: "" }, variables: {} },
    unsubscribeLink: null,
  });
}
