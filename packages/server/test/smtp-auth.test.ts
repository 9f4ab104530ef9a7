/**
 * SMTP with a username and password: a loopback server (a local Mailpit or
 * Inbucket) is used without STARTTLS, any other host only over TLS unless the
 * operator opts out; and the shared server is checked once at start.
 */
import { createServer, type Server, type Socket } from "node:net";
import { networkInterfaces } from "node:os";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { configFromEnv } from "../src/config.ts";
import { insertQueuedEmail } from "../src/domain/emails/queue.ts";
import { authNeedsTls, sendSmtp, type SmtpSettings } from "../src/domain/emails/smtp.ts";
import { isLoopbackAddress } from "../src/lib/network-addresses.ts";
import { createProject } from "./fixtures.ts";
import { createTestServer } from "./harness.ts";
import { startSmtpPeer, type SmtpPeer } from "./smtp-peer.ts";

const CREDENTIALS = { username: "mailer", password: "s3cret-smtp-password" };

const settings = (port: number, overrides: Partial<SmtpSettings> = {}): SmtpSettings => ({
  host: "127.0.0.1",
  port,
  ...CREDENTIALS,
  senderEmail: "noreply@example.com",
  senderName: null,
  ...overrides,
});
const message = (subject: string) => ({ to: ["ada@example.com"], subject, html: `<p>${subject}</p>`, text: subject });

let peer: SmtpPeer;
beforeAll(async () => {
  peer = await startSmtpPeer({ requireAuth: CREDENTIALS });
});
afterAll(() => peer?.close());

describe("whether a password needs TLS", () => {
  it("not for loopback addresses, every one of them loopback", () => {
    expect(authNeedsTls(["127.0.0.1"], false)).toBe(false);
    expect(authNeedsTls(["127.8.9.10"], false)).toBe(false);
    expect(authNeedsTls(["::1"], false)).toBe(false);
    expect(authNeedsTls(["127.0.0.1", "::1"], false)).toBe(false);
    expect(authNeedsTls(["::ffff:127.0.0.1"], false)).toBe(false);
  });

  it("for any other host, or one that also names another address, unless the operator opts out", () => {
    for (const addresses of [
      ["203.0.113.5"],
      ["10.0.0.5"],
      ["192.168.1.2"],
      ["2001:db8::1"],
      ["127.0.0.1", "10.0.0.5"],
      ["::ffff:10.0.0.5"],
      [],
    ]) {
      expect(authNeedsTls(addresses, false), addresses.join(",")).toBe(true);
    }
    expect(authNeedsTls(["203.0.113.5"], true)).toBe(false);
  });

  it("knows loopback addresses", () => {
    expect(["127.0.0.1", "127.255.255.254", "::1", "::ffff:127.0.0.1"].map(isLoopbackAddress)).toEqual([true, true, true, true]);
    expect(["128.0.0.1", "0.0.0.0", "::", "::2", "localhost", "", "10.0.0.1"].map(isLoopbackAddress)).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
  });

  it("is read from LATCHKEY_SMTP_ALLOW_INSECURE_AUTH, off by default", () => {
    expect(configFromEnv({ STACK_SERVER_SECRET: "x" }).smtpAllowInsecureAuth).toBe(false);
    expect(configFromEnv({ STACK_SERVER_SECRET: "x", LATCHKEY_SMTP_ALLOW_INSECURE_AUTH: "true" }).smtpAllowInsecureAuth).toBe(true);
  });
});

describe("a loopback SMTP server with authentication and no STARTTLS", () => {
  it("receives the mail, logged in, by address and by the name localhost", async () => {
    await sendSmtp(settings(peer.port), message("By address"), null);
    await sendSmtp(settings(peer.port, { host: "localhost" }), message("By name"), null);
    expect((await peer.waitFor((m) => m.subject === "By address")).text?.trim()).toBe("By address");
    expect((await peer.waitFor((m) => m.subject === "By name")).text?.trim()).toBe("By name");
    expect(peer.logins.filter((u) => u === CREDENTIALS.username).length).toBeGreaterThanOrEqual(2);
  });

  it("refuses wrong credentials", async () => {
    await expect(sendSmtp(settings(peer.port, { password: "wrong" }), message("Refused"), null)).rejects.toMatchObject({ code: "EAUTH" });
    expect(peer.inbox.some((m) => m.subject === "Refused")).toBe(false);
  });

  it("as the shared server, delivers the queue's mail, and the start-up check logs nothing", async () => {
    const server = await createTestServer({ email: settings(peer.port) });
    try {
      expect(await server.instance.services.emails.sharedSmtpChecked).toBeNull();
      const project = await createProject(server);
      await insertQueuedEmail(server.instance.services.db, project.id, message("Through the queue"), server.clock.date());
      await server.instance.services.emails.flush();
      await peer.waitFor((m) => m.subject === "Through the queue");
      expect(server.logs.filter((l) => Number(l.level) >= 40 && /SMTP/.test(String(l.msg)))).toEqual([]);
    } finally {
      await server.close();
    }
  });
});

/** An address of this machine that is not loopback, if it has one: a peer there is "another host". */
const OWN_ADDRESS = Object.values(networkInterfaces())
  .flat()
  .find((a) => a && !a.internal && a.family === "IPv4")?.address;

describe.skipIf(!OWN_ADDRESS)("an SMTP server on a host that is not loopback, with authentication and no STARTTLS", () => {
  let remote: SmtpPeer;
  beforeAll(async () => {
    remote = await startSmtpPeer({ requireAuth: CREDENTIALS, host: OWN_ADDRESS });
  });
  afterAll(() => remote?.close());

  it("gets no password and no mail, unless the operator allows authentication without TLS", async () => {
    await expect(sendSmtp(settings(remote.port, { host: OWN_ADDRESS }), message("Insecure"), null)).rejects.toMatchObject({ code: "ETLS" });
    expect(remote.logins).toEqual([]);
    expect(remote.inbox).toEqual([]);
    await sendSmtp(settings(remote.port, { host: OWN_ADDRESS }), message("Allowed"), null, undefined, true);
    await remote.waitFor((m) => m.subject === "Allowed");
    expect(remote.logins).toEqual([CREDENTIALS.username]);
  });

  it("is named at start with the fix, and not when the operator allowed it", async () => {
    const refused = await createTestServer({ email: settings(remote.port, { host: OWN_ADDRESS }) });
    const warning = await refused.instance.services.emails.sharedSmtpChecked;
    await refused.close();
    expect(warning).toMatch(/may not offer STARTTLS.*LATCHKEY_SMTP_ALLOW_INSECURE_AUTH=true/);
    const allowed = await createTestServer({ email: settings(remote.port, { host: OWN_ADDRESS }), smtpAllowInsecureAuth: true });
    expect(await allowed.instance.services.emails.sharedSmtpChecked).toBeNull();
    await allowed.close();
  });
});

describe("the start-up check of the shared SMTP server", () => {
  async function startedWith(email: SmtpSettings) {
    const server = await createTestServer({ email });
    const warning = await server.instance.services.emails.sharedSmtpChecked;
    const logged = server.logs.filter((l) => l.level === 40 && typeof l.msg === "string" && l.msg.includes("shared SMTP server"));
    const all = JSON.stringify(server.logs);
    await server.close();
    return { warning, logged, all };
  }

  it("warns once when the server refuses the credentials, naming the variables, never the password", async () => {
    const { warning, logged, all } = await startedWith(settings(peer.port, { password: "not-the-password" }));
    expect(logged).toHaveLength(1);
    expect(logged[0]!.msg).toBe(warning);
    expect(warning).toMatch(/refused the username "mailer"/);
    expect(warning).toMatch(/STACK_EMAIL_USERNAME and STACK_EMAIL_PASSWORD/);
    expect(all).not.toContain("not-the-password");
  });

  it("warns when nothing listens on the port", async () => {
    const closed = await unusedPort();
    const { warning, logged, all } = await startedWith(settings(closed));
    expect(logged).toHaveLength(1);
    expect(warning).toContain(`The shared SMTP server 127.0.0.1:${closed} cannot be used`);
    expect(warning).toMatch(/ECONNREFUSED.*STACK_EMAIL_HOST and STACK_EMAIL_PORT/);
    expect(all).not.toContain(CREDENTIALS.password);
  });

  it("does not hold up the start when the server never answers", async () => {
    const silent = await silentServer();
    try {
      const started = Date.now();
      const server = await createTestServer({ email: settings(silent.port) });
      let settled = false;
      void server.instance.services.emails.sharedSmtpChecked.then(() => (settled = true));
      expect(Date.now() - started).toBeLessThan(10_000);
      const res = await server.request("/projects/current", { as: server.internal.client });
      expect(res.status).toBe(200);
      expect(settled).toBe(false);
      await server.close();
    } finally {
      await silent.close();
    }
  });
});

async function unusedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", () => resolve()));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** Accepts connections and never says a word (no SMTP greeting). */
async function silentServer(): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  return {
    port: (server.address() as AddressInfo).port,
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
