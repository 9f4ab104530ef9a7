/**
 * CLI login (see @latchkey/shared api/cli-auth.ts): a CLI starts a login
 * and polls; a signed-in browser confirms with its own refresh token; the
 * next poll hands that token over once. Every state (waiting, success,
 * used, expired), every refusal, the anonymous-session modes, codes used
 * concurrently, and codes kept to their project.
 */
import { CLI_AUTH_DEFAULT_EXPIRATION_MILLIS, CLI_AUTH_MAX_EXPIRATION_MILLIS } from "@latchkey/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findByPollingCode, isOpen, updateIf } from "../src/capabilities/cli-login/domain/attempts.ts";
import { CLI_AUTH_MESSAGES } from "../src/capabilities/cli-login/domain/messages.ts";
import { handOver } from "../src/capabilities/cli-login/domain/poll.ts";
import { createSession } from "../src/domain/sessions/sessions.ts";
import { sha256Hex } from "../src/lib/secrets.ts";
import {
  anonymousUser,
  completeCli,
  expectRefusal,
  later,
  pollCli,
  rowOf as storedRowOf,
  startCli,
  userIdOfRefreshToken,
} from "./cli-fixtures.ts";
import { createProject, expectSchemaErrorIncluding, serverWithProject, signUpUser, type Project } from "./fixtures.ts";
import { expectKnownError, type TestServer } from "./harness.ts";

let server: TestServer;
let project: Project;
let other: Project;

beforeAll(async () => {
  ({ server, project } = await serverWithProject());
  other = await createProject(server);
});
afterAll(() => server?.close());

const CODE = /^[0-9a-hjkmnp-tv-z]{45}$/;

const rowOf = (pollingCode: string) => storedRowOf(server, pollingCode);

describe("POST /auth/cli", () => {
  it("answers two fresh codes and the expiry, 2 hours by default", async () => {
    const before = server.clock.now();
    const started = await startCli(server, project.client);
    expect(Object.keys(started).sort()).toEqual(["expires_at", "login_code", "polling_code"]);
    expect(started.polling_code).toMatch(CODE);
    expect(started.login_code).toMatch(CODE);
    expect(started.login_code).not.toBe(started.polling_code);
    expect(new Date(started.expires_at).toISOString()).toBe(started.expires_at);
    const expiresAt = new Date(started.expires_at).getTime();
    expect(expiresAt).toBeGreaterThanOrEqual(before + CLI_AUTH_DEFAULT_EXPIRATION_MILLIS);
    expect(expiresAt).toBeLessThanOrEqual(server.clock.now() + CLI_AUTH_DEFAULT_EXPIRATION_MILLIS);
  });

  it("takes a lifetime up to 24 hours", async () => {
    const before = server.clock.now();
    const started = await startCli(server, project.client, { expires_in_millis: CLI_AUTH_MAX_EXPIRATION_MILLIS });
    expect(new Date(started.expires_at).getTime()).toBeGreaterThanOrEqual(before + CLI_AUTH_MAX_EXPIRATION_MILLIS);
    const short = await startCli(server, project.client, { expires_in_millis: 60_000 });
    expect(new Date(short.expires_at).getTime()).toBeLessThanOrEqual(server.clock.now() + 60_000);
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
    const expired = await later(server, 120_000, () =>
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

  it("with a refresh token of another branch of this project", async () => {
    // Only the main branch can be reached over HTTP; a session of another branch is made directly.
    const user = await signUpUser(server, project);
    const { refreshToken } = await createSession(server.instance.services.db, {
      projectId: project.id,
      now: server.clock.date(),
      branchId: "dev",
      userId: user.userId,
    });
    const started = await startCli(server, project.client);
    const res = await completeCli(server, project.client, { login_code: started.login_code, refresh_token: refreshToken });
    expectRefusal(res, CLI_AUTH_MESSAGES.refreshTokenOfOtherProject);
    expect(CLI_AUTH_MESSAGES.refreshTokenOfOtherProject).toContain("another project or branch");
    await expectStillWaiting(started);
  });

  it("with a session whose user is not a user of this project and branch", async () => {
    // Sessions go with their user when it is deleted; one left pointing elsewhere is made directly.
    const stranger = await signUpUser(server, other);
    const { refreshToken } = await createSession(server.instance.services.db, {
      projectId: project.id,
      now: server.clock.date(),
      branchId: "main",
      userId: stranger.userId,
    });
    const started = await startCli(server, project.client);
    const res = await completeCli(server, project.client, { login_code: started.login_code, refresh_token: refreshToken });
    expectRefusal(res, CLI_AUTH_MESSAGES.refreshTokenUserGone);
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
    await later(server, 60_001, async () => {
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
    expect((await rowOf(started.polling_code)).refreshTokenSealed).not.toBeNull();
    const late = await later(server, 60_001, () => pollCli(server, project.client, started.polling_code));
    expect(late.body).toEqual({ status: "expired" });
    const row = await rowOf(started.polling_code);
    expect(row.usedAt).toBeNull();
    // Nobody can receive it any more, so it is not kept.
    expect(row.refreshTokenSealed).toBeNull();
  });

  it("drops the CLI's anonymous session when a completion finds the login expired", async () => {
    const browser = await signUpUser(server, project);
    const anon = await anonymousUser(server, project.client);
    const started = await startCli(server, project.client, { expires_in_millis: 60_000, anon_refresh_token: anon.refresh_token });
    expect((await rowOf(started.polling_code)).anonRefreshTokenSealed).not.toBeNull();
    const late = await later(server, 60_001, () =>
      completeCli(server, project.client, { login_code: started.login_code, refresh_token: browser.refreshToken }),
    );
    expectRefusal(late, CLI_AUTH_MESSAGES.invalidLoginCode);
    const row = await rowOf(started.polling_code);
    expect(row.anonRefreshTokenSealed).toBeNull();
    expect(row.refreshTokenSealed).toBeNull();
  });

  it("polls as expired after it was used, too (expiry is checked first)", async () => {
    const browser = await signUpUser(server, project);
    const started = await startCli(server, project.client, { expires_in_millis: 60_000 });
    await completeCli(server, project.client, { login_code: started.login_code, refresh_token: browser.refreshToken });
    expect((await pollCli(server, project.client, started.polling_code)).status).toBe(201);
    expect((await later(server, 60_001, () => pollCli(server, project.client, started.polling_code))).body).toEqual({ status: "expired" });
  });
});

describe("concurrency", () => {
  // Over HTTP, the loser of a race is usually stopped by a read before it reaches the conditional UPDATE
  // (and PGlite runs one statement at a time), so these call that UPDATE with a stale read directly.
  it("a poll from a stale read hands nothing over: the conditional update lets exactly one through", async () => {
    const browser = await signUpUser(server, project);
    const started = await startCli(server, project.client);
    await completeCli(server, project.client, { login_code: started.login_code, refresh_token: browser.refreshToken });
    const scope = { projectId: project.id, branchId: "main" };
    const read = (await findByPollingCode(server.instance.services.db, scope, started.polling_code))!;
    expect(await handOver(server.instance.services, scope, read)).toEqual({ status: "success", refresh_token: browser.refreshToken });
    // The same read again: it still shows the token and no use, but the row no longer does.
    expect(read.usedAt).toBeNull();
    expect(await handOver(server.instance.services, scope, read)).toEqual({ status: "used" });
  });

  it("a completion from a stale read changes nothing", async () => {
    const started = await startCli(server, project.client);
    const row = await rowOf(started.polling_code);
    const db = server.instance.services.db;
    expect(await updateIf(db, row, isOpen(server.clock.date()), { refreshTokenSealed: "first", completedAt: server.clock.date() })).toBe(
      true,
    );
    expect(await updateIf(db, row, isOpen(server.clock.date()), { refreshTokenSealed: "second", completedAt: server.clock.date() })).toBe(
      false,
    );
    expect((await rowOf(started.polling_code)).refreshTokenSealed).toBe("first");
  });

  it("a request that expired between the read and the update is not confirmed", async () => {
    const started = await startCli(server, project.client, { expires_in_millis: 60_000 });
    const row = await rowOf(started.polling_code);
    const confirmed = await later(server, 60_001, () =>
      updateIf(server.instance.services.db, row, isOpen(server.clock.date()), {
        refreshTokenSealed: "late",
        completedAt: server.clock.date(),
      }),
    );
    expect(confirmed).toBe(false);
    expect((await rowOf(started.polling_code)).refreshTokenSealed).toBeNull();
  });

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
