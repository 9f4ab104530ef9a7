/**
 * CLI login (see @latchkey/shared api/cli-auth.ts): a CLI starts a login
 * and polls; a signed-in browser confirms with its own refresh token; the
 * next poll hands that token over once. Every state (waiting, success,
 * used, expired), every refusal, the anonymous-session modes, codes used
 * concurrently, and codes kept to their project.
 */
import { CLI_AUTH_DEFAULT_EXPIRATION_MILLIS, CLI_AUTH_MAX_EXPIRATION_MILLIS } from "@latchkey/shared";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { cliAuthAttempts } from "../src/db/schema/index.ts";
import { CLI_AUTH_MESSAGES } from "../src/domain/auth/cli/messages.ts";
import { sha256Hex } from "../src/lib/secrets.ts";
import { anonymousUser, completeCli, pollCli, startCli, userIdOfRefreshToken } from "./cli-fixtures.ts";
import { createProject, expectPlainError, expectSchemaErrorIncluding, signUpUser, type Project } from "./fixtures.ts";
import { createTestServer, expectKnownError, type TestResponse, type TestServer } from "./harness.ts";

let server: TestServer;
let project: Project;
let other: Project;

beforeAll(async () => {
  server = await createTestServer();
  project = await createProject(server);
  other = await createProject(server);
});
afterAll(() => server?.close());

const CODE = /^[0-9a-hjkmnp-tv-z]{45}$/;

function expectRefusal(res: TestResponse, message: string): void {
  expectPlainError(res, 400);
  expect(res.text).toBe(message);
}

/** Runs `body` with the clock `millis` ahead (only Date is faked). */
async function later<T>(millis: number, body: () => Promise<T>): Promise<T> {
  vi.useFakeTimers({ toFake: ["Date"] });
  try {
    vi.setSystemTime(Date.now() + millis);
    return await body();
  } finally {
    vi.useRealTimers();
  }
}

async function rowOf(pollingCode: string) {
  const [row] = await server.instance.services.db
    .select()
    .from(cliAuthAttempts)
    .where(eq(cliAuthAttempts.pollingCodeHash, sha256Hex(pollingCode)));
  return row!;
}

describe("POST /auth/cli", () => {
  it("answers two fresh codes and the expiry, 2 hours by default", async () => {
    const before = Date.now();
    const started = await startCli(server, project.client);
    expect(Object.keys(started).sort()).toEqual(["expires_at", "login_code", "polling_code"]);
    expect(started.polling_code).toMatch(CODE);
    expect(started.login_code).toMatch(CODE);
    expect(started.login_code).not.toBe(started.polling_code);
    expect(new Date(started.expires_at).toISOString()).toBe(started.expires_at);
    const expiresAt = new Date(started.expires_at).getTime();
    expect(expiresAt).toBeGreaterThanOrEqual(before + CLI_AUTH_DEFAULT_EXPIRATION_MILLIS);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + CLI_AUTH_DEFAULT_EXPIRATION_MILLIS);
  });

  it("takes a lifetime up to 24 hours", async () => {
    const before = Date.now();
    const started = await startCli(server, project.client, { expires_in_millis: CLI_AUTH_MAX_EXPIRATION_MILLIS });
    expect(new Date(started.expires_at).getTime()).toBeGreaterThanOrEqual(before + CLI_AUTH_MAX_EXPIRATION_MILLIS);
    const short = await startCli(server, project.client, { expires_in_millis: 60_000 });
    expect(new Date(short.expires_at).getTime()).toBeLessThanOrEqual(Date.now() + 60_000);
  });

  it("is open to client, server and admin access", async () => {
    for (const as of [project.client, project.server, project.admin]) {
      const started = await startCli(server, as);
      const res = await pollCli(server, as, started.polling_code);
      expect(res.status, res.text).toBe(200);
      expect(res.body).toEqual({ status: "waiting" });
    }
  });

  it("refuses a lifetime over 24 hours, a negative one and unknown fields", async () => {
    const post = (body: unknown) => server.request("/auth/cli", { method: "POST", as: project.client, body });
    expectSchemaErrorIncluding(
      await post({ expires_in_millis: CLI_AUTH_MAX_EXPIRATION_MILLIS + 1 }),
      `body.expires_in_millis must be less than or equal to ${CLI_AUTH_MAX_EXPIRATION_MILLIS}`,
    );
    expectSchemaErrorIncluding(await post({ expires_in_millis: -1 }), "body.expires_in_millis must be greater than or equal to 1");
    expectSchemaErrorIncluding(await post({ expires_in_millis: 0 }), "body.expires_in_millis must be greater than or equal to 1");
    expectSchemaErrorIncluding(await post({ polling_code: "x" }), "body contains unknown properties: polling_code");
  });

  it("stores digests of the codes, never the codes", async () => {
    const started = await startCli(server, project.client);
    const row = await rowOf(started.polling_code);
    expect(row.loginCodeHash).toBe(sha256Hex(started.login_code));
    expect(JSON.stringify(row)).not.toContain(started.polling_code);
    expect(JSON.stringify(row)).not.toContain(started.login_code);
  });
});

describe("a CLI login confirmed by a signed-in user", () => {
  it("goes waiting → success (201, the browser's own refresh token, once) → used", async () => {
    const browser = await signUpUser(server, project);
    const started = await startCli(server, project.client);

    const waiting = await pollCli(server, project.client, started.polling_code);
    expect(waiting.status, waiting.text).toBe(200);
    expect(waiting.body).toEqual({ status: "waiting" });

    const done = await completeCli(server, project.client, { login_code: started.login_code, refresh_token: browser.refreshToken });
    expect(done.status, done.text).toBe(200);
    expect(done.body).toEqual({ success: true });
    const sealed = (await rowOf(started.polling_code)).refreshTokenSealed;
    expect(sealed).toBeTruthy();
    expect(sealed).not.toContain(browser.refreshToken);

    const success = await pollCli(server, project.client, started.polling_code);
    expect(success.status, success.text).toBe(201);
    expect(success.body).toEqual({ status: "success", refresh_token: browser.refreshToken });
    expect(await userIdOfRefreshToken(server, project.client, success.body.refresh_token)).toBe(browser.userId);
    const row = await rowOf(started.polling_code);
    expect(row.usedAt).not.toBeNull();
    expect(row.refreshTokenSealed).toBeNull();

    const used = await pollCli(server, project.client, started.polling_code);
    expect(used.status, used.text).toBe(200);
    expect(used.body).toEqual({ status: "used" });
  });

  it("accepts a code in upper case", async () => {
    const browser = await signUpUser(server, project);
    const started = await startCli(server, project.client);
    const done = await completeCli(server, project.client, {
      login_code: started.login_code.toUpperCase(),
      refresh_token: browser.refreshToken,
    });
    expect(done.status, done.text).toBe(200);
    expect((await pollCli(server, project.client, started.polling_code.toUpperCase())).status).toBe(201);
  });

  it("refuses a second completion of one login code, and keeps the first", async () => {
    const [first, second] = [await signUpUser(server, project), await signUpUser(server, project)];
    const started = await startCli(server, project.client);
    expect((await completeCli(server, project.client, { login_code: started.login_code, refresh_token: first.refreshToken })).status).toBe(
      200,
    );
    const again = await completeCli(server, project.client, { login_code: started.login_code, refresh_token: second.refreshToken });
    expectRefusal(again, CLI_AUTH_MESSAGES.invalidLoginCode);
    expect((await pollCli(server, project.client, started.polling_code)).body.refresh_token).toBe(first.refreshToken);
    // Spent: completing it after the hand-over is refused the same way.
    expectRefusal(
      await completeCli(server, project.client, { login_code: started.login_code, refresh_token: second.refreshToken }),
      CLI_AUTH_MESSAGES.invalidLoginCode,
    );
  });

  it("answers INVALID_POLLING_CODE for a polling code nobody issued", async () => {
    const res = await pollCli(server, project.client, "0".repeat(45));
    expectKnownError(res, "INVALID_POLLING_CODE", 400);
    expectKnownError(await pollCli(server, project.client, ""), "INVALID_POLLING_CODE", 400);
    // The login code is not a polling code.
    const started = await startCli(server, project.client);
    expectKnownError(await pollCli(server, project.client, started.login_code), "INVALID_POLLING_CODE", 400);
  });

  it("refuses a login code nobody issued, in every mode", async () => {
    const browser = await signUpUser(server, project);
    for (const mode of ["complete", "check", "claim-anon-session"]) {
      const res = await completeCli(server, project.client, { login_code: "0".repeat(45), mode, refresh_token: browser.refreshToken });
      expectRefusal(res, CLI_AUTH_MESSAGES.invalidLoginCode);
    }
  });

  it("refuses a request body outside the contract", async () => {
    const started = await startCli(server, project.client);
    expectSchemaErrorIncluding(
      await completeCli(server, project.client, { login_code: started.login_code, mode: "merge" }),
      "body.mode must be one of the following values: complete, check, claim-anon-session",
    );
    expectSchemaErrorIncluding(await completeCli(server, project.client, { mode: "check" }), "body.login_code must be defined");
    expectSchemaErrorIncluding(
      await pollCli(server, project.client, 42 as unknown as string),
      "body.polling_code must be a `string` type, but the final value was: `42`.",
    );
  });
});

describe("refusals of a completion, which leave the login waiting", () => {
  async function expectStillWaiting(started: { polling_code: string; login_code: string }) {
    expect((await pollCli(server, project.client, started.polling_code)).body).toEqual({ status: "waiting" });
    const browser = await signUpUser(server, project);
    const done = await completeCli(server, project.client, { login_code: started.login_code, refresh_token: browser.refreshToken });
    expect(done.status, done.text).toBe(200);
  }

  it("without a refresh token", async () => {
    const started = await startCli(server, project.client);
    expectRefusal(await completeCli(server, project.client, { login_code: started.login_code }), CLI_AUTH_MESSAGES.refreshTokenRequired);
    await expectStillWaiting(started);
  });

  it("with a refresh token that is unknown, revoked or expired", async () => {
    const started = await startCli(server, project.client);
    const complete = (refreshToken: string) =>
      completeCli(server, project.client, { login_code: started.login_code, refresh_token: refreshToken });
    expectRefusal(await complete("0".repeat(45)), CLI_AUTH_MESSAGES.invalidRefreshToken);

    const signedOut = await signUpUser(server, project);
    const out = await server.request("/auth/sessions/current", {
      method: "DELETE",
      as: signedOut.as,
      headers: { "x-stack-refresh-token": signedOut.refreshToken },
    });
    expect(out.status, out.text).toBe(200);
    expectRefusal(await complete(signedOut.refreshToken), CLI_AUTH_MESSAGES.invalidRefreshToken);

    const user = await signUpUser(server, project);
    const shortSession = await server.request("/auth/sessions", {
      method: "POST",
      as: project.server,
      body: { user_id: user.userId, expires_in_millis: 60_000 },
    });
    expect(shortSession.status, shortSession.text).toBe(200);
    const login = await startCli(server, project.client, { expires_in_millis: 3_600_000 });
    const expired = await later(120_000, () =>
      completeCli(server, project.client, { login_code: login.login_code, refresh_token: shortSession.body.refresh_token }),
    );
    expectRefusal(expired, CLI_AUTH_MESSAGES.invalidRefreshToken);
    await expectStillWaiting(started);
    await expectStillWaiting(login);
  });

  it("with a refresh token of another project", async () => {
    const started = await startCli(server, project.client);
    const stranger = await signUpUser(server, other);
    const res = await completeCli(server, project.client, { login_code: started.login_code, refresh_token: stranger.refreshToken });
    expectRefusal(res, CLI_AUTH_MESSAGES.refreshTokenOfOtherProject);
    await expectStillWaiting(started);
  });

  it("with the session of a restricted user: RESTRICTED_USER_NOT_ALLOWED", async () => {
    const started = await startCli(server, project.client);
    const user = await signUpUser(server, project);
    const restrict = await server.request(`/users/${user.userId}`, {
      method: "PATCH",
      as: project.server,
      body: { restricted_by_admin: true },
    });
    expect(restrict.status, restrict.text).toBe(200);
    const res = await completeCli(server, project.client, { login_code: started.login_code, refresh_token: user.refreshToken });
    expectKnownError(res, "RESTRICTED_USER_NOT_ALLOWED", 403);
    expect(res.body.details).toEqual({ restricted_reason: { type: "restricted_by_administrator" } });
    await expectStillWaiting(started);
  });

  it("with the session of an anonymous user: RESTRICTED_USER_NOT_ALLOWED", async () => {
    const started = await startCli(server, project.client);
    const anon = await anonymousUser(server, project.client);
    const res = await completeCli(server, project.client, { login_code: started.login_code, refresh_token: anon.refresh_token });
    expectKnownError(res, "RESTRICTED_USER_NOT_ALLOWED", 403);
    expect(res.body.details).toEqual({ restricted_reason: { type: "anonymous" } });
    await expectStillWaiting(started);
  });
});

describe("an expired CLI login", () => {
  it("polls as expired and refuses completion", async () => {
    const browser = await signUpUser(server, project);
    const started = await startCli(server, project.client, { expires_in_millis: 60_000 });
    await later(60_001, async () => {
      const poll = await pollCli(server, project.client, started.polling_code);
      expect(poll.status, poll.text).toBe(200);
      expect(poll.body).toEqual({ status: "expired" });
      for (const mode of ["complete", "check", "claim-anon-session"]) {
        const res = await completeCli(server, project.client, {
          login_code: started.login_code,
          mode,
          refresh_token: browser.refreshToken,
        });
        expectRefusal(res, CLI_AUTH_MESSAGES.invalidLoginCode);
      }
    });
  });

  it("expires even when confirmed: the CLI that polls too late gets nothing", async () => {
    const browser = await signUpUser(server, project);
    const started = await startCli(server, project.client, { expires_in_millis: 60_000 });
    expect(
      (await completeCli(server, project.client, { login_code: started.login_code, refresh_token: browser.refreshToken })).status,
    ).toBe(200);
    const late = await later(60_001, () => pollCli(server, project.client, started.polling_code));
    expect(late.body).toEqual({ status: "expired" });
    expect((await rowOf(started.polling_code)).usedAt).toBeNull();
  });

  it("polls as expired after it was used, too (expiry is checked first)", async () => {
    const browser = await signUpUser(server, project);
    const started = await startCli(server, project.client, { expires_in_millis: 60_000 });
    await completeCli(server, project.client, { login_code: started.login_code, refresh_token: browser.refreshToken });
    expect((await pollCli(server, project.client, started.polling_code)).status).toBe(201);
    expect((await later(60_001, () => pollCli(server, project.client, started.polling_code))).body).toEqual({ status: "expired" });
  });
});

describe("concurrency", () => {
  it("two polls after completion: exactly one gets the token", async () => {
    const browser = await signUpUser(server, project);
    const started = await startCli(server, project.client);
    await completeCli(server, project.client, { login_code: started.login_code, refresh_token: browser.refreshToken });
    const answers = await Promise.all([
      pollCli(server, project.client, started.polling_code),
      pollCli(server, project.client, started.polling_code),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 201]);
    expect(answers.map((a) => a.body.status).sort()).toEqual(["success", "used"]);
  });

  it("two completions of one login code: exactly one succeeds, and its session is the one handed over", async () => {
    const [a, b] = [await signUpUser(server, project), await signUpUser(server, project)];
    const started = await startCli(server, project.client);
    const answers = await Promise.all([
      completeCli(server, project.client, { login_code: started.login_code, refresh_token: a.refreshToken }),
      completeCli(server, project.client, { login_code: started.login_code, refresh_token: b.refreshToken }),
    ]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 400]);
    const winner = answers[0]!.status === 200 ? a : b;
    expectRefusal(
      answers.find((r) => r.status === 400)!,
      CLI_AUTH_MESSAGES.invalidLoginCode,
    );
    expect((await pollCli(server, project.client, started.polling_code)).body.refresh_token).toBe(winner.refreshToken);
  });
});

describe("the CLI's anonymous session", () => {
  it("refuses an anon_refresh_token that is unknown, of another project, of a signed-up user, or expired", async () => {
    const post = (token: string) =>
      server.request("/auth/cli", { method: "POST", as: project.client, body: { anon_refresh_token: token } });
    expectRefusal(await post("0".repeat(45)), CLI_AUTH_MESSAGES.invalidAnonRefreshToken);
    expectRefusal(await post((await anonymousUser(server, other.client)).refresh_token), CLI_AUTH_MESSAGES.anonRefreshTokenOfOtherProject);
    expectRefusal(await post((await signUpUser(server, project)).refreshToken), CLI_AUTH_MESSAGES.anonRefreshTokenNotAnonymous);
    const anon = await anonymousUser(server, project.client);
    const short = await server.request("/auth/sessions", {
      method: "POST",
      as: project.server,
      body: { user_id: anon.user_id, expires_in_millis: 60_000 },
    });
    expect(short.status, short.text).toBe(200);
    expectRefusal(await later(120_000, () => post(short.body.refresh_token)), CLI_AUTH_MESSAGES.anonRefreshTokenExpired);
  });

  it("check says none without one, anonymous with a live one, none once it is signed out", async () => {
    const plain = await startCli(server, project.client);
    expect((await completeCli(server, project.client, { login_code: plain.login_code, mode: "check" })).body).toEqual({
      cli_session_state: "none",
    });

    const anon = await anonymousUser(server, project.client);
    const started = await startCli(server, project.client, { anon_refresh_token: anon.refresh_token });
    const sealed = (await rowOf(started.polling_code)).anonRefreshTokenSealed;
    expect(sealed).toBeTruthy();
    expect(sealed).not.toContain(anon.refresh_token);
    const check = await completeCli(server, project.client, { login_code: started.login_code, mode: "check" });
    expect(check.status, check.text).toBe(200);
    expect(check.body).toEqual({ cli_session_state: "anonymous" });

    await server.request("/auth/sessions/current", {
      method: "DELETE",
      as: { ...project.client, accessToken: anon.access_token, allowAnonymous: true },
      headers: { "x-stack-refresh-token": anon.refresh_token },
    });
    expect((await completeCli(server, project.client, { login_code: started.login_code, mode: "check" })).body).toEqual({
      cli_session_state: "none",
    });
    expectRefusal(
      await completeCli(server, project.client, { login_code: started.login_code, mode: "claim-anon-session" }),
      CLI_AUTH_MESSAGES.anonSessionGone,
    );
  });

  it("claim-anon-session hands the browser that session once; after signing up, the browser completes the login", async () => {
    const anon = await anonymousUser(server, project.client);
    const started = await startCli(server, project.client, { anon_refresh_token: anon.refresh_token });
    const claim = await completeCli(server, project.client, { login_code: started.login_code, mode: "claim-anon-session" });
    expect(claim.status, claim.text).toBe(200);
    expect(Object.keys(claim.body).sort()).toEqual(["access_token", "refresh_token"]);
    expect(claim.body.refresh_token).toBe(anon.refresh_token);
    const me = await server.request("/users/me", { as: { ...project.client, accessToken: claim.body.access_token, allowAnonymous: true } });
    expect(me.body).toMatchObject({ id: anon.user_id, is_anonymous: true });

    expectRefusal(
      await completeCli(server, project.client, { login_code: started.login_code, mode: "claim-anon-session" }),
      CLI_AUTH_MESSAGES.noAnonSession,
    );
    expect((await completeCli(server, project.client, { login_code: started.login_code, mode: "check" })).body).toEqual({
      cli_session_state: "none",
    });
    expect((await pollCli(server, project.client, started.polling_code)).body).toEqual({ status: "waiting" });

    // The visitor signs up as that anonymous user, then confirms.
    const signUp = await server.request("/auth/password/sign-up", {
      method: "POST",
      as: { ...project.client, accessToken: claim.body.access_token, allowAnonymous: true },
      body: { email: `cli-${Date.now()}@example.com`, password: "correct horse battery staple" },
    });
    expect(signUp.status, signUp.text).toBe(200);
    expect(signUp.body.user_id).toBe(anon.user_id);
    const done = await completeCli(server, project.client, { login_code: started.login_code, refresh_token: signUp.body.refresh_token });
    expect(done.status, done.text).toBe(200);
    const success = await pollCli(server, project.client, started.polling_code);
    expect(success.status).toBe(201);
    expect(await userIdOfRefreshToken(server, project.client, success.body.refresh_token)).toBe(anon.user_id);
  });

  it("refuses claim-anon-session without an anonymous session, and after completion", async () => {
    const plain = await startCli(server, project.client);
    expectRefusal(
      await completeCli(server, project.client, { login_code: plain.login_code, mode: "claim-anon-session" }),
      CLI_AUTH_MESSAGES.noAnonSession,
    );
    const anon = await anonymousUser(server, project.client);
    const started = await startCli(server, project.client, { anon_refresh_token: anon.refresh_token });
    const browser = await signUpUser(server, project);
    await completeCli(server, project.client, { login_code: started.login_code, refresh_token: browser.refreshToken });
    expect((await rowOf(started.polling_code)).anonRefreshTokenSealed).toBeNull();
    expectRefusal(
      await completeCli(server, project.client, { login_code: started.login_code, mode: "claim-anon-session" }),
      CLI_AUTH_MESSAGES.invalidLoginCode,
    );
  });

  it("two concurrent claims: exactly one gets the session", async () => {
    const anon = await anonymousUser(server, project.client);
    const started = await startCli(server, project.client, { anon_refresh_token: anon.refresh_token });
    const claim = () => completeCli(server, project.client, { login_code: started.login_code, mode: "claim-anon-session" });
    const answers = await Promise.all([claim(), claim()]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 400]);
  });
});

describe("project scoping", () => {
  it("a login of one project is unknown to another", async () => {
    const browser = await signUpUser(server, project);
    const stranger = await signUpUser(server, other);
    const started = await startCli(server, project.client);
    expectKnownError(await pollCli(server, other.client, started.polling_code), "INVALID_POLLING_CODE", 400);
    for (const mode of ["complete", "check", "claim-anon-session"]) {
      const res = await completeCli(server, other.client, { login_code: started.login_code, mode, refresh_token: stranger.refreshToken });
      expectRefusal(res, CLI_AUTH_MESSAGES.invalidLoginCode);
    }
    const done = await completeCli(server, project.client, { login_code: started.login_code, refresh_token: browser.refreshToken });
    expect(done.status, done.text).toBe(200);
    expectKnownError(await pollCli(server, other.client, started.polling_code), "INVALID_POLLING_CODE", 400);
    expect((await pollCli(server, project.client, started.polling_code)).status).toBe(201);
  });
});
