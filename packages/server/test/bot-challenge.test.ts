/**
 * Bot challenges on password sign-up and on mailing a sign-in code: every
 * outcome of the verification (against a stand-in verification service on
 * loopback), the phase rules, the score kept on the new user, and the
 * requests that must never be refused.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { configFromEnv } from "../src/config.ts";
import { createProject, expectSchemaError, PASSWORD, uniqueEmail, type Project } from "./fixtures.ts";
import { createTestServer, expectKnownError, type Auth, type TestServer } from "./harness.ts";
import { CALLBACK_URL, createMailingTestServer, linkIn, type MailingServer } from "./mail-fixtures.ts";
import { startSiteverifyPeer, type SiteverifyPeer, type SiteverifyReply } from "./siteverify-peer.ts";

const SIGN_UP = "/auth/password/sign-up";
const SEND = "/auth/otp/send-sign-in-code";
const SIGN_IN = "/auth/otp/sign-in";
const SECRET = "turnstile-test-secret-1f0c9a";
const TIMEOUT_MILLIS = 400;

/**
 * Tokens tell the stand-in what to answer, so tests need not share state:
 * `pass:<action>:<hostname>`, `nohost:<action>` (passed, no hostname in the answer), `fail`, `hang`,
 * `status:<code>`, `garbage`.
 */
function replyTo(token: string | null): SiteverifyReply {
  const [kind, a, b] = (token ?? "").split(":");
  if (kind === "pass") return { json: { success: true, action: a, hostname: b, "error-codes": [] } };
  if (kind === "nohost") return { json: { success: true, action: a, "error-codes": [] } };
  if (kind === "hang") return "hang";
  if (kind === "status") return { status: Number(a), json: { error: "down" } };
  if (kind === "garbage") return { json: ["not", "an", "answer"] };
  return { json: { success: false, "error-codes": ["invalid-input-response"] } };
}

const token = (action: string, hostname = "localhost") => `pass:${action}:${hostname}:${uniqueEmail("t")}`;
const SIGN_UP_OK = () => token("sign_up_with_credential");
const SEND_OK = () => token("send_magic_link_email");

let peer: SiteverifyPeer;
let mailing: MailingServer;
let server: TestServer;
let project: Project;

beforeAll(async () => {
  peer = await startSiteverifyPeer();
  peer.reply = (request) => replyTo(request.response);
  mailing = await createMailingTestServer({ botChallenge: { url: peer.url, secretKey: SECRET, timeoutMillis: TIMEOUT_MILLIS } });
  server = mailing.server;
  project = await createProject(server, undefined, { magic_link_enabled: true });
});
afterAll(async () => {
  await mailing?.close();
  await peer?.close();
});

function signUp(body: Record<string, unknown>, as: Auth = project.client, on = server) {
  return on.request(SIGN_UP, { method: "POST", as, body: { email: uniqueEmail("bot"), password: PASSWORD, ...body } });
}

function sendCode(email: string, body: Record<string, unknown>, as: Auth = project.client) {
  return server.request(SEND, { method: "POST", as, body: { email, callback_url: CALLBACK_URL, ...body } });
}

async function botScore(userId: string, p: Pick<Project, "server"> = project, on = server): Promise<number> {
  const res = await on.request(`/users/${userId}`, { as: p.server, query: { include_anonymous: true } });
  expect(res.status, res.text).toBe(200);
  expect(res.body.risk_scores.sign_up.free_trial_abuse).toBe(0);
  return res.body.risk_scores.sign_up.bot;
}

async function signedUpScore(body: Record<string, unknown>, p: Project = project): Promise<number> {
  const res = await signUp(body, p.client);
  expect(res.status, res.text).toBe(200);
  return botScore(res.body.user_id, p);
}

async function usersWithEmail(email: string): Promise<unknown[]> {
  const res = await server.request("/users", { as: project.server, query: { query: email } });
  expect(res.status, res.text).toBe(200);
  return res.body.items;
}

const sentTokens = () => peer.received.map((r) => r.response);

describe("configuration", () => {
  const base = { STACK_SERVER_SECRET: "s".repeat(64) };

  it("is off without a secret, or when disabled", () => {
    expect(configFromEnv(base).botChallenge).toBeNull();
    expect(configFromEnv({ ...base, STACK_TURNSTILE_SITEVERIFY_URL: peer.url }).botChallenge).toBeNull();
    expect(configFromEnv({ ...base, STACK_TURNSTILE_SECRET_KEY: SECRET, STACK_DISABLE_BOT_CHALLENGE: "true" }).botChallenge).toBeNull();
  });

  it("verifies at the configured URL, else at Cloudflare's, within a few seconds", () => {
    const configured = configFromEnv({ ...base, STACK_TURNSTILE_SECRET_KEY: SECRET, STACK_TURNSTILE_SITEVERIFY_URL: peer.url });
    expect(configured.botChallenge).toEqual({ url: peer.url, secretKey: SECRET, timeoutMillis: expect.any(Number) });
    expect(configured.botChallenge!.timeoutMillis).toBeGreaterThanOrEqual(1000);
    expect(configured.botChallenge!.timeoutMillis).toBeLessThanOrEqual(10_000);
    const fallback = configFromEnv({ ...base, STACK_TURNSTILE_SECRET_KEY: SECRET, STACK_DISABLE_BOT_CHALLENGE: "false" });
    expect(fallback.botChallenge!.url).toBe("https://challenges.cloudflare.com/turnstile/v0/siteverify");
  });
});

describe("with challenges off", () => {
  let off: TestServer;
  let offProject: Project;
  beforeAll(async () => {
    off = await createTestServer();
    offProject = await createProject(off);
  });
  afterAll(() => off?.close());

  it("accepts the fields and lets every request through with the lowest score, asking no one", async () => {
    const before = peer.received.length;
    for (const body of [
      { bot_challenge_token: "fail", bot_challenge_phase: "invisible" },
      { bot_challenge_token: "fail", bot_challenge_phase: "visible" },
      { bot_challenge_unavailable: "true" },
      {},
    ]) {
      const res = await signUp(body, offProject.client, off);
      expect(res.status, res.text).toBe(200);
      expect(await botScore(res.body.user_id, offProject, off)).toBe(0);
    }
    expect(peer.received.length).toBe(before);
  });
});

describe("password sign-up", () => {
  it("sends the secret and the token, and scores a passed challenge 0", async () => {
    const t = SIGN_UP_OK();
    expect(await signedUpScore({ bot_challenge_token: t })).toBe(0);
    const sent = peer.received.find((r) => r.response === t);
    expect(sent).toEqual({ secret: SECRET, response: t, remoteip: null, contentType: "application/x-www-form-urlencoded;charset=UTF-8" });
  });

  it("sends the caller's address when it knows it", async () => {
    const base = await server.listen();
    const t = SIGN_UP_OK();
    const res = await fetch(`${base}/api/v1${SIGN_UP}`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-stack-access-type": "client",
        "x-stack-project-id": project.id,
        "x-stack-publishable-client-key": project.client.publishableClientKey!,
      },
      body: JSON.stringify({ email: uniqueEmail("ip"), password: PASSWORD, bot_challenge_token: t, bot_challenge_phase: "invisible" }),
    });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(peer.received.find((r) => r.response === t)?.remoteip).toBe("127.0.0.1");
  });

  it("without a phase, lets a failed or missing challenge through with the highest score", async () => {
    expect(await signedUpScore({})).toBe(100);
    expect(await signedUpScore({ bot_challenge_token: "" })).toBe(100);
    expect(await signedUpScore({ bot_challenge_token: "   " })).toBe(100);
    expect(sentTokens()).not.toContain("");
    expect(sentTokens()).not.toContain("   ");
    expect(await signedUpScore({ bot_challenge_token: `fail:${uniqueEmail()}` })).toBe(100);
  });

  it("counts a token made for another action as failed", async () => {
    expect(await signedUpScore({ bot_challenge_token: SEND_OK() })).toBe(100);
    expect(await signedUpScore({ bot_challenge_token: token("oauth_authenticate") })).toBe(100);
    // An answer naming no action at all is no proof either.
    expect(await signedUpScore({ bot_challenge_token: `pass::localhost:${uniqueEmail()}` })).toBe(100);
  });

  it("counts a token solved on a page outside the project's trusted domains as failed", async () => {
    const strict = await createProject(server, project.owner, {
      allow_localhost: false,
      domains: [
        { domain: "https://app.example.com", handler_path: "/handler" },
        { domain: "https://*.shop.example.org:8443", handler_path: "/handler" },
      ],
    });
    expect(await signedUpScore({ bot_challenge_token: token("sign_up_with_credential", "app.example.com") }, strict)).toBe(0);
    expect(await signedUpScore({ bot_challenge_token: token("sign_up_with_credential", "eu.shop.example.org") }, strict)).toBe(0);
    expect(await signedUpScore({ bot_challenge_token: token("sign_up_with_credential", "evil.example.net") }, strict)).toBe(100);
    expect(await signedUpScore({ bot_challenge_token: token("sign_up_with_credential", "a.b.shop.example.org") }, strict)).toBe(100);
    // localhost only counts while the project allows it.
    expect(await signedUpScore({ bot_challenge_token: token("sign_up_with_credential", "localhost") }, strict)).toBe(100);
    expect(await signedUpScore({ bot_challenge_token: token("sign_up_with_credential", "localhost") })).toBe(0);
    expect(await signedUpScore({ bot_challenge_token: token("sign_up_with_credential", "app.example.com") })).toBe(100);
  });

  it("scores a passed token 0 when the answer names no hostname, as long as its action is the step's", async () => {
    const strict = await createProject(server, project.owner, {
      allow_localhost: false,
      domains: [{ domain: "https://app.example.com", handler_path: "/handler" }],
    });
    expect(await signedUpScore({ bot_challenge_token: `nohost:sign_up_with_credential:${uniqueEmail()}` })).toBe(0);
    expect(await signedUpScore({ bot_challenge_token: `nohost:sign_up_with_credential:${uniqueEmail()}` }, strict)).toBe(0);
    expect(await signedUpScore({ bot_challenge_token: `nohost:send_magic_link_email:${uniqueEmail()}` })).toBe(100);
    expect(await signedUpScore({ bot_challenge_token: `nohost::${uniqueEmail()}` })).toBe(100);
    // A hostname that is there is still checked.
    expect(await signedUpScore({ bot_challenge_token: token("sign_up_with_credential", "evil.example.net") }, strict)).toBe(100);
    const visible = await signUp({
      bot_challenge_token: `nohost:sign_up_with_credential:${uniqueEmail()}`,
      bot_challenge_phase: "invisible",
    });
    expect(visible.status, visible.text).toBe(200);
  });

  it("phase invisible: a challenge that did not pass answers BOT_CHALLENGE_REQUIRED and creates no one", async () => {
    for (const t of [`fail:${uniqueEmail()}`, "", SEND_OK(), `hang:${uniqueEmail()}`]) {
      const email = uniqueEmail("invisible");
      const res = await signUp({ email, bot_challenge_token: t, bot_challenge_phase: "invisible" });
      expectKnownError(res, "BOT_CHALLENGE_REQUIRED", 409);
      expect(await usersWithEmail(email)).toEqual([]);
    }
    const missing = await signUp({ bot_challenge_phase: "invisible" });
    expectKnownError(missing, "BOT_CHALLENGE_REQUIRED", 409);
    expect(await signedUpScore({ bot_challenge_token: SIGN_UP_OK(), bot_challenge_phase: "invisible" })).toBe(0);
  });

  it("phase visible: a challenge that did not pass answers BOT_CHALLENGE_FAILED with a message and creates no one", async () => {
    for (const t of [`fail:${uniqueEmail()}`, "", `status:503:${uniqueEmail()}`]) {
      const email = uniqueEmail("visible");
      const res = await signUp({ email, bot_challenge_token: t, bot_challenge_phase: "visible" });
      expectKnownError(res, "BOT_CHALLENGE_FAILED", 400);
      expect(Object.keys(res.body.details)).toEqual(["message"]);
      expect(res.body.details.message).toBe(res.body.error);
      expect(res.body.error.length).toBeGreaterThan(0);
      expect(await usersWithEmail(email)).toEqual([]);
    }
  });

  it("phase visible: a passed challenge signs up, scored like the invisible step that failed before it", async () => {
    expect(await signedUpScore({ bot_challenge_token: SIGN_UP_OK(), bot_challenge_phase: "visible" })).toBe(100);
  });

  it("unavailable: asks no one and scores the middle", async () => {
    const before = peer.received.length;
    expect(await signedUpScore({ bot_challenge_unavailable: "true" })).toBe(50);
    expect(peer.received.length).toBe(before);
  });

  it("a verification that times out, answers an error status or an unreadable body counts as unverifiable", async () => {
    const started = Date.now();
    const t = `hang:${uniqueEmail()}`;
    expect(await signedUpScore({ bot_challenge_token: t })).toBe(50);
    expect(Date.now() - started).toBeLessThan(TIMEOUT_MILLIS + 3000);
    // Asked once: no retry.
    expect(sentTokens().filter((s) => s === t)).toHaveLength(1);
    expect(await signedUpScore({ bot_challenge_token: `status:500:${uniqueEmail()}` })).toBe(50);
    expect(await signedUpScore({ bot_challenge_token: `garbage:${uniqueEmail()}` })).toBe(50);
    expectKnownError(
      await signUp({ bot_challenge_token: `hang:${uniqueEmail()}`, bot_challenge_phase: "visible" }),
      "BOT_CHALLENGE_FAILED",
      400,
    );
  });

  it("an anonymous user who signs up gets the score too", async () => {
    const anon = await server.request("/auth/anonymous/sign-up", { method: "POST", as: project.client });
    expect(anon.status, anon.text).toBe(200);
    expect(await botScore(anon.body.user_id)).toBe(0);
    const res = await signUp(
      { bot_challenge_token: `fail:${uniqueEmail()}` },
      { ...project.client, accessToken: anon.body.access_token, allowAnonymous: true },
    );
    expect(res.status, res.text).toBe(200);
    expect(res.body.user_id).toBe(anon.body.user_id);
    expect(await botScore(anon.body.user_id)).toBe(100);
  });

  it("refuses malformed fields and bad combinations with SCHEMA_ERROR, creating no one", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ bot_challenge_token: 42 }, "body.bot_challenge_token must be a `string` type, but the final value was: `42`."],
      [{ bot_challenge_phase: "hidden" }, "body.bot_challenge_phase must be one of the following values: invisible, visible"],
      [{ bot_challenge_unavailable: true }, "body.bot_challenge_unavailable must be one of the following values: true"],
      [{ bot_challenge_unavailable: "false" }, "body.bot_challenge_unavailable must be one of the following values: true"],
      [
        { bot_challenge_unavailable: "true", bot_challenge_token: SIGN_UP_OK() },
        "body.bot_challenge_unavailable cannot be given together with bot_challenge_token or bot_challenge_phase",
      ],
      [
        { bot_challenge_unavailable: "true", bot_challenge_phase: "invisible" },
        "body.bot_challenge_unavailable cannot be given together with bot_challenge_token or bot_challenge_phase",
      ],
    ];
    for (const [fields, message] of cases) {
      const email = uniqueEmail("schema");
      const res = await signUp({ email, ...fields });
      expectSchemaError(res, "POST", SIGN_UP, [message]);
      expect(await usersWithEmail(email)).toEqual([]);
    }
  });
});

describe("a server that cannot reach the verification service", () => {
  let down: TestServer;
  let downProject: Project;
  beforeAll(async () => {
    // A port that was just free and is closed again: connections are refused.
    const closed = await startSiteverifyPeer();
    const url = closed.url;
    await closed.close();
    down = await createTestServer({ botChallenge: { url, secretKey: SECRET, timeoutMillis: TIMEOUT_MILLIS } });
    downProject = await createProject(down);
  });
  afterAll(() => down?.close());

  it("scores the middle without a phase, and asks for (or fails) the visible challenge with one", async () => {
    const res = await signUp({ bot_challenge_token: SIGN_UP_OK() }, downProject.client, down);
    expect(res.status, res.text).toBe(200);
    expect(await botScore(res.body.user_id, downProject, down)).toBe(50);
    const invisible = await signUp({ bot_challenge_token: SIGN_UP_OK(), bot_challenge_phase: "invisible" }, downProject.client, down);
    expectKnownError(invisible, "BOT_CHALLENGE_REQUIRED", 409);
    const visible = await signUp({ bot_challenge_token: SIGN_UP_OK(), bot_challenge_phase: "visible" }, downProject.client, down);
    expectKnownError(visible, "BOT_CHALLENGE_FAILED", 400);
  });

  it("logs why, never the secret or the token", async () => {
    const t = SIGN_UP_OK();
    await signUp({ bot_challenge_token: t }, downProject.client, down);
    const logged = JSON.stringify(down.logs);
    expect(logged).toContain("bot challenge verification unreachable");
    expect(logged).not.toContain(SECRET);
    expect(logged).not.toContain(t);
  });
});

describe("mailing a sign-in code", () => {
  async function signInWithMailed(email: string): Promise<{ user_id: string; is_new_user: boolean }> {
    const { code } = linkIn(await mailing.mailTo(email));
    const res = await server.request(SIGN_IN, { method: "POST", as: project.client, body: { code } });
    expect(res.status, res.text).toBe(200);
    return res.body;
  }

  it("never refuses a code to an existing user, whatever the challenge says", async () => {
    // Signed up by a code, so the address is verified and codes may go to it.
    const email = uniqueEmail("existing");
    expect((await sendCode(email, { bot_challenge_token: SEND_OK() })).status).toBe(200);
    const user = { email, userId: (await signInWithMailed(email)).user_id };
    const before = peer.received.length;
    for (const body of [
      { bot_challenge_token: "fail", bot_challenge_phase: "invisible" },
      { bot_challenge_token: "fail", bot_challenge_phase: "visible" },
      { bot_challenge_phase: "invisible" },
      { bot_challenge_token: "fail" },
    ]) {
      const res = await sendCode(user.email, body);
      expect(res.status, res.text).toBe(200);
      const signedIn = await signInWithMailed(user.email);
      expect(signedIn).toMatchObject({ user_id: user.userId, is_new_user: false });
    }
    expect(peer.received.length).toBe(before);
    expect(await botScore(user.userId)).toBe(0);
  });

  it("for a new address, phase invisible or visible refuses a failed challenge and mails nothing", async () => {
    const email = uniqueEmail("new");
    expectKnownError(
      await sendCode(email, { bot_challenge_token: "fail", bot_challenge_phase: "invisible" }),
      "BOT_CHALLENGE_REQUIRED",
      409,
    );
    expectKnownError(
      await sendCode(email, { bot_challenge_token: SIGN_UP_OK(), bot_challenge_phase: "invisible" }),
      "BOT_CHALLENGE_REQUIRED",
      409,
    );
    const failed = await sendCode(email, { bot_challenge_token: "fail", bot_challenge_phase: "visible" });
    expectKnownError(failed, "BOT_CHALLENGE_FAILED", 400);
    expect(failed.body.details.message).toBe(failed.body.error);
    await server.instance.services.emails.flush();
    expect(mailing.smtp.inbox.some((m) => JSON.stringify(m.to).includes(email))).toBe(false);
    expect(await usersWithEmail(email)).toEqual([]);
  });

  it("keeps a new address's outcome with the code and scores the user the code creates", async () => {
    const cases: [Record<string, unknown>, number][] = [
      [{ bot_challenge_token: SEND_OK(), bot_challenge_phase: "invisible" }, 0],
      [{ bot_challenge_token: SEND_OK() }, 0],
      [{ bot_challenge_token: "fail" }, 100],
      [{}, 100],
      [{ bot_challenge_unavailable: "true" }, 50],
      [{ bot_challenge_token: SEND_OK(), bot_challenge_phase: "visible" }, 100],
    ];
    for (const [body, score] of cases) {
      const email = uniqueEmail("code");
      const res = await sendCode(email, body);
      expect(res.status, res.text).toBe(200);
      const signedIn = await signInWithMailed(email);
      expect(signedIn.is_new_user).toBe(true);
      expect(await botScore(signedIn.user_id), JSON.stringify(body)).toBe(score);
    }
  });

  it("answers SIGN_UP_NOT_ENABLED, not a challenge, for a new address while sign-up is closed", async () => {
    const closed = await createProject(server, project.owner, { magic_link_enabled: true, sign_up_enabled: false });
    const res = await server.request(SEND, {
      method: "POST",
      as: closed.client,
      body: { email: uniqueEmail("closed"), callback_url: CALLBACK_URL, bot_challenge_token: "fail", bot_challenge_phase: "invisible" },
    });
    expectKnownError(res, "SIGN_UP_NOT_ENABLED");
  });

  it("refuses malformed fields and bad combinations with SCHEMA_ERROR, mailing nothing", async () => {
    const email = uniqueEmail("schema");
    const res = await sendCode(email, { bot_challenge_token: SEND_OK(), bot_challenge_unavailable: "true" });
    expectSchemaError(res, "POST", SEND, [
      "body.bot_challenge_unavailable cannot be given together with bot_challenge_token or bot_challenge_phase",
    ]);
    const phase = await sendCode(email, { bot_challenge_phase: "Visible" });
    expectSchemaError(phase, "POST", SEND, ["body.bot_challenge_phase must be one of the following values: invisible, visible"]);
    const other = await sendCode(email, { bot_challenge: "x" });
    expectSchemaError(other, "POST", SEND, ["body contains unknown properties: bot_challenge"]);
    await server.instance.services.emails.flush();
    expect(mailing.smtp.inbox.some((m) => JSON.stringify(m.to).includes(email))).toBe(false);
  });
});
