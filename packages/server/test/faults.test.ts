/**
 * Dependencies failing under a request: an OAuth provider that refuses
 * connections or never answers, a provider's callback that fails the
 * protocol's checks, a provider gone when a connected account's token is
 * asked for, an SMTP server that drops the connection in the middle
 * of a message. None of them may become a 500: the answer is the catalogue's
 * error or a 503 with Retry-After, and nothing accepted is lost.
 * (PostgreSQL dropping its connections: faults-postgres.test.ts.)
 */
import { OAUTH_PROVIDER_IDS } from "@latchkey/shared";
import { createServer, type Server, type Socket } from "node:net";
import { eq } from "drizzle-orm";
import { SMTPServer } from "smtp-server";
import { simpleParser, type ParsedMail } from "mailparser";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { oauthAccounts, sentEmails } from "../src/db/schema/index.ts";
import { openProviderToken } from "../src/domain/auth/oauth/provider-tokens.ts";
import { insertQueuedEmail, retryDelaySeconds } from "../src/domain/emails/queue.ts";
import { INVALID_CALLBACK_MESSAGE } from "../src/domain/auth/oauth/providers.ts";
import { createProject, jwtPayload, uniqueEmail, type Project } from "./fixtures.ts";
import { expireAccessTokens, tokensOf } from "./provider-token-fixtures.ts";
import { createTestServer, freePort, type TestServer } from "./harness.ts";
import {
  authorizeQuery,
  authorizeUrl,
  Browser,
  createOAuthProject,
  newPkce,
  providerCallbackUrl,
  signInWithProvider,
  startOAuthTestbed,
  startSignIn,
  type OAuthTestbed,
} from "./oauth-fixtures.ts";

const UNAVAILABLE_MESSAGE = "The OAuth provider is temporarily unavailable. Please try signing in again.";

/** A test server whose shared providers all go to `mockUrl` (the development provider's place). */
function serverWithProviderAt(mockUrl: string, timeoutMillis = 6000): Promise<TestServer> {
  return createTestServer({
    oauthMockUrl: mockUrl,
    sharedOAuthCredentials: Object.fromEntries(OAUTH_PROVIDER_IDS.map((id) => [id, { kind: "mock" as const }])),
    oauthProviderTimeoutMillis: timeoutMillis,
  });
}

/** GET authorize as a browser would, for GitHub (shared, so the development provider's place). */
async function authorize(server: TestServer, project: Project): Promise<Response> {
  const url = authorizeUrl(authorizeQuery(project, newPkce(), "app-state"));
  return new Browser(server).go(url);
}

async function expectProviderUnavailable(res: Response): Promise<void> {
  const text = await res.text();
  expect(res.status, text).toBe(503);
  expect(res.headers.get("retry-after")).toMatch(/^[1-9][0-9]*$/);
  // Readable by an app's code in the browser too.
  expect(res.headers.get("access-control-expose-headers")).toContain("retry-after");
  expect(res.headers.get("x-stack-known-error")).toBe("OAUTH_PROVIDER_TEMPORARILY_UNAVAILABLE");
  expect(JSON.parse(text)).toMatchObject({ code: "OAUTH_PROVIDER_TEMPORARILY_UNAVAILABLE", error: UNAVAILABLE_MESSAGE });
}

describe("an OAuth provider that refuses connections", () => {
  let server: TestServer;
  let project: Project;

  beforeAll(async () => {
    // Nothing listens on a port just freed.
    server = await serverWithProviderAt(`http://127.0.0.1:${await freePort()}`);
    project = await createOAuthProject(server);
  });
  afterAll(() => server?.close());

  it("answers authorize with OAUTH_PROVIDER_TEMPORARILY_UNAVAILABLE (503, Retry-After), not a server error", async () => {
    await expectProviderUnavailable(await authorize(server, project));
    // Asked again next time, and still unavailable: a failed discovery is not kept.
    await expectProviderUnavailable(await authorize(server, project));
  });
});

describe("an OAuth provider that accepts connections and never answers", () => {
  let server: TestServer;
  let project: Project;
  let silent: Server;
  const held = new Set<Socket>();

  beforeAll(async () => {
    silent = createServer((socket) => {
      held.add(socket);
      socket.on("close", () => held.delete(socket));
    });
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const { port } = silent.address() as AddressInfo;
    // The injected limit instead of the 6 s a provider is given in production.
    server = await serverWithProviderAt(`http://127.0.0.1:${port}`, 150);
    project = await createOAuthProject(server);
  });
  afterAll(async () => {
    await server?.close();
    for (const socket of held) socket.destroy();
    await new Promise((resolve) => silent?.close(resolve));
  });

  it("gives up after the provider timeout with OAUTH_PROVIDER_TEMPORARILY_UNAVAILABLE", async () => {
    const started = performance.now();
    await expectProviderUnavailable(await authorize(server, project));
    // The request reached the provider and was cut off by the limit, not refused.
    expect(held.size).toBeGreaterThan(0);
    expect(performance.now() - started).toBeLessThan(5000);
  });
});

/** A testbed and project of the describe block's own (a block may close its provider). */
function ownOAuthTestbed(): { testbed: OAuthTestbed; project: Project } {
  const own = {} as { testbed: OAuthTestbed; project: Project };
  beforeAll(async () => {
    own.testbed = await startOAuthTestbed();
    own.project = await createOAuthProject(own.testbed.server);
  });
  afterAll(() => own.testbed?.close());
  return own;
}

describe("a provider's callback that fails the protocol's checks", () => {
  const own = ownOAuthTestbed();

  it("answers a callback without the issuer the provider promises with 400, not a server error", async () => {
    const { testbed, project } = own;
    const started = await startSignIn(testbed, project);
    const callback = new URL(await providerCallbackUrl(testbed, started, uniqueEmail("no-iss")));
    expect(callback.searchParams.get("iss")).not.toBeNull();
    callback.searchParams.delete("iss");

    const res = await started.browser.go(callback.toString());
    expect(res.status).toBe(400);
    expect(await res.text()).toBe(INVALID_CALLBACK_MESSAGE);
  });

  it("answers a callback naming another issuer with 400", async () => {
    const { testbed, project } = own;
    const started = await startSignIn(testbed, project);
    const callback = new URL(await providerCallbackUrl(testbed, started, uniqueEmail("other-iss")));
    callback.searchParams.set("iss", "https://issuer.example.com");

    const res = await started.browser.go(callback.toString());
    expect(res.status).toBe(400);
    expect(await res.text()).toBe(INVALID_CALLBACK_MESSAGE);
  });
});

describe("connected accounts while the provider is down", () => {
  const own = ownOAuthTestbed();

  it("hands out a stored access token it cannot check, and answers 503 with Retry-After when it must refresh", async () => {
    const { testbed, project } = own;
    const signedIn = await signInWithProvider(testbed, project, uniqueEmail("connected"));
    expect(signedIn.status, signedIn.text).toBe(200);
    const userId = jwtPayload(signedIn.body.access_token).sub as string;
    const db = testbed.server.instance.services.db;
    const [account] = await db.select().from(oauthAccounts).where(eq(oauthAccounts.userId, userId));
    const [stored] = await tokensOf(testbed.server, account!.id, "access");
    const ask = () =>
      testbed.server.request("/connected-accounts/me/github/access-token", {
        method: "POST",
        as: { ...project.client, accessToken: signedIn.body.access_token },
        body: {},
      });

    await testbed.provider.close();
    // As on a server that has not met the provider since it started: discovery is asked again (the answers
    // are kept per provider and time limit), and the provider refuses the connection.
    testbed.server.config.oauthProviderTimeoutMillis += 1;

    const cached = await ask();
    expect(cached.status, cached.text).toBe(201);
    expect(cached.body.access_token).toBe(openProviderToken(testbed.server.config.serverSecret, stored!.tokenSealed));

    await expireAccessTokens(testbed.server, account!.id);
    const refresh = await ask();
    expect(refresh.status, refresh.text).toBe(503);
    expect(refresh.headers.get("retry-after")).toMatch(/^[1-9][0-9]*$/);
  });
});

/**
 * An SMTP server on loopback that, while `drop` is on, reads a message's
 * DATA and then cuts the connection without answering: the client cannot
 * know the message arrived, and it did not.
 */
async function startDroppingSmtp(): Promise<{ port: number; inbox: ParsedMail[]; drop: boolean; dropped: number; close(): Promise<void> }> {
  const peer = { port: 0, inbox: [] as ParsedMail[], drop: true, dropped: 0, close: () => Promise.resolve() };
  const sockets = new Set<Socket>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((mail) => {
          if (peer.drop) {
            peer.dropped += 1;
            // This session's socket, cut before the reply to DATA.
            for (const socket of sockets) if (socket.remotePort === session.remotePort) socket.destroy();
            return;
          }
          peer.inbox.push(mail);
          callback();
        })
        .catch(callback);
    },
  });
  server.server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  peer.port = (server.server.address() as AddressInfo).port;
  peer.close = () => new Promise((resolve) => server.close(() => resolve()));
  return peer;
}

describe("an SMTP server that drops the connection after DATA", () => {
  let server: TestServer;
  let project: Project;
  let smtp: Awaited<ReturnType<typeof startDroppingSmtp>>;

  beforeAll(async () => {
    smtp = await startDroppingSmtp();
    server = await createTestServer({
      email: { host: "127.0.0.1", port: smtp.port, username: "", password: "", senderEmail: "noreply@example.com", senderName: null },
    });
    project = await createProject(server);
  });
  afterAll(async () => {
    await server?.close();
    await smtp?.close();
  });

  it("keeps the message queued and delivers it once on a later attempt", async () => {
    const { db, emails } = server.instance.services;
    const subject = "Survives a dropped connection";
    const id = await insertQueuedEmail(
      db,
      project.id,
      { to: ["ada@example.com"], subject, html: `<p>${subject}</p>` },
      server.clock.date(),
    );
    await emails.flush();
    expect(smtp.dropped).toBe(1);
    const row = async () => (await db.select().from(sentEmails).where(eq(sentEmails.id, id)))[0]!;
    expect(await row()).toMatchObject({ status: "queued", attempts: 1, sentAt: null });

    smtp.drop = false;
    // Not before its back-off: nothing is sent twice in a hurry.
    await emails.flush();
    expect(smtp.inbox).toHaveLength(0);
    await server.clock.ahead(retryDelaySeconds(1) * 1000, async () => {
      await emails.flush();
      // Another run finds nothing left to send.
      await emails.flush();
    });
    expect(await row()).toMatchObject({ status: "sent", attempts: 2 });
    expect(smtp.inbox.filter((m) => m.subject === subject)).toHaveLength(1);
  });
});
