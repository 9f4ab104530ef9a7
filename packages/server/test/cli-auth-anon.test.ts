/**
 * CLI login for a CLI that came with an anonymous session (see
 * domain/auth/cli/anon-session.ts): which anonymous tokens a login may
 * start with; `check`; `claim-anon-session`, which hands the browser the
 * CLI's own anonymous session (its refresh token, a fresh access token), so
 * the visitor signs up as that user; the guard against a user who is no
 * longer anonymous; and claims racing each other and a completion.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { takeOverAnonSession } from "../src/capabilities/cli-login/domain/anon-session.ts";
import { CLI_AUTH_MESSAGES } from "../src/capabilities/cli-login/domain/messages.ts";
import { createSession } from "../src/domain/sessions/sessions.ts";
import {
  anonymousUser,
  completeCli,
  expectRefusal,
  later,
  pollCli,
  refreshes,
  rowOf as storedRowOf,
  signOut,
  startCli,
  userIdOfRefreshToken,
} from "./cli-fixtures.ts";
import { createProject, PASSWORD, serverWithProject, signUpUser, uniqueEmail, type Project } from "./fixtures.ts";
import type { TestServer } from "./harness.ts";

let server: TestServer;
let project: Project;
let other: Project;

beforeAll(async () => {
  ({ server, project } = await serverWithProject());
  other = await createProject(server);
});
afterAll(() => server?.close());

const rowOf = (pollingCode: string) => storedRowOf(server, pollingCode);
const asAnonymous = (accessToken: string) => ({ ...project.client, accessToken, allowAnonymous: true });

/** How many live sessions the user has (GET /auth/sessions as server). */
async function sessionCount(userId: string): Promise<number> {
  const res = await server.request("/auth/sessions", { as: project.server, query: { user_id: userId } });
  expect(res.status, res.text).toBe(200);
  return (res.body.items as unknown[]).length;
}

/** Password sign-up by the holder of an anonymous access token: the anonymous user becomes a full one, keeping their id. */
async function signUpAs(accessToken: string): Promise<{ refresh_token: string; user_id: string }> {
  const res = await server.request("/auth/password/sign-up", {
    method: "POST",
    as: asAnonymous(accessToken),
    body: { email: uniqueEmail("cli-anon"), password: PASSWORD },
  });
  expect(res.status, res.text).toBe(200);
  return res.body;
}

describe("starting with an anonymous session", () => {
  it("refuses an anon_refresh_token that is unknown, of another project or branch, of a signed-up user, expired, or whose user is gone", async () => {
    const post = (token: string) =>
      server.request("/auth/cli", { method: "POST", as: project.client, body: { anon_refresh_token: token } });
    expectRefusal(await post("0".repeat(45)), CLI_AUTH_MESSAGES.invalidAnonRefreshToken);
    expectRefusal(await post((await anonymousUser(server, other.client)).refresh_token), CLI_AUTH_MESSAGES.anonRefreshTokenOfOtherProject);
    const db = server.instance.services.db;
    const anonOfThisProject = await anonymousUser(server, project.client);
    // Only the main branch can be reached over HTTP; sessions of another branch, or pointing at another project's user, are made directly.
    const otherBranch = await createSession(db, {
      projectId: project.id,
      branchId: "dev",
      userId: anonOfThisProject.user_id,
      now: server.clock.date(),
    });
    expectRefusal(await post(otherBranch.refreshToken), CLI_AUTH_MESSAGES.anonRefreshTokenOfOtherProject);
    expect(CLI_AUTH_MESSAGES.anonRefreshTokenOfOtherProject).toContain("another project or branch");
    const stranger = await anonymousUser(server, other.client);
    const userGone = await createSession(db, {
      projectId: project.id,
      branchId: "main",
      userId: stranger.user_id,
      now: server.clock.date(),
    });
    expectRefusal(await post(userGone.refreshToken), CLI_AUTH_MESSAGES.anonRefreshTokenUserGone);
    expectRefusal(await post((await signUpUser(server, project)).refreshToken), CLI_AUTH_MESSAGES.anonRefreshTokenNotAnonymous);
    const anon = await anonymousUser(server, project.client);
    const short = await server.request("/auth/sessions", {
      method: "POST",
      as: project.server,
      body: { user_id: anon.user_id, expires_in_millis: 60_000 },
    });
    expect(short.status, short.text).toBe(200);
    expectRefusal(await later(server, 120_000, () => post(short.body.refresh_token)), CLI_AUTH_MESSAGES.anonRefreshTokenExpired);
  });
});

describe("check", () => {
  it("says none without one, anonymous with a live one, none once it is signed out", async () => {
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

    await signOut(server, asAnonymous(anon.access_token), anon.refresh_token);
    expect((await completeCli(server, project.client, { login_code: started.login_code, mode: "check" })).body).toEqual({
      cli_session_state: "none",
    });
    expectRefusal(
      await completeCli(server, project.client, { login_code: started.login_code, mode: "claim-anon-session" }),
      CLI_AUTH_MESSAGES.anonSessionGone,
    );
  });
});

describe("claim-anon-session", () => {
  it("hands the browser the CLI's own anonymous refresh token with a fresh access token; after signing up, the browser completes the login", async () => {
    const anon = await anonymousUser(server, project.client);
    const started = await startCli(server, project.client, { anon_refresh_token: anon.refresh_token });
    const claim = await completeCli(server, project.client, { login_code: started.login_code, mode: "claim-anon-session" });
    expect(claim.status, claim.text).toBe(200);
    expect(Object.keys(claim.body).sort()).toEqual(["access_token", "refresh_token"]);
    // The CLI's session itself, which the CLI keeps: no new session.
    expect(claim.body.refresh_token).toBe(anon.refresh_token);
    expect(await refreshes(server, project.client, anon.refresh_token)).toBe(true);
    expect(await sessionCount(anon.user_id)).toBe(1);
    const me = await server.request("/users/me", { as: asAnonymous(claim.body.access_token) });
    expect(me.body).toMatchObject({ id: anon.user_id, is_anonymous: true });

    // Once only.
    expectRefusal(
      await completeCli(server, project.client, { login_code: started.login_code, mode: "claim-anon-session" }),
      CLI_AUTH_MESSAGES.noAnonSession,
    );
    expect((await completeCli(server, project.client, { login_code: started.login_code, mode: "check" })).body).toEqual({
      cli_session_state: "none",
    });
    expect((await pollCli(server, project.client, started.polling_code)).body).toEqual({ status: "waiting" });

    // The visitor signs up as that anonymous user (upgraded in place), then confirms.
    const signUp = await signUpAs(claim.body.access_token);
    expect(signUp.user_id).toBe(anon.user_id);
    const done = await completeCli(server, project.client, { login_code: started.login_code, refresh_token: signUp.refresh_token });
    expect(done.status, done.text).toBe(200);
    const success = await pollCli(server, project.client, started.polling_code);
    expect(success.status).toBe(201);
    expect(success.body).toEqual({ status: "success", refresh_token: signUp.refresh_token });
    expect(await userIdOfRefreshToken(server, project.client, success.body.refresh_token)).toBe(anon.user_id);
    // The shared session now belongs to the signed-up user.
    expect(await userIdOfRefreshToken(server, project.client, anon.refresh_token)).toBe(anon.user_id);
  });

  it("is refused once the CLI's anonymous user has signed up, and check then says none; nothing changes", async () => {
    const anon = await anonymousUser(server, project.client);
    const started = await startCli(server, project.client, { anon_refresh_token: anon.refresh_token });
    // The CLI's own user signs up (with the CLI's session): that account's session must not go to whoever has the link.
    const signedUp = await signUpAs(anon.access_token);
    expect(signedUp.user_id).toBe(anon.user_id);
    expect((await completeCli(server, project.client, { login_code: started.login_code, mode: "check" })).body).toEqual({
      cli_session_state: "none",
    });
    const sealed = (await rowOf(started.polling_code)).anonRefreshTokenSealed;
    const sessionsBefore = await sessionCount(anon.user_id);
    expectRefusal(
      await completeCli(server, project.client, { login_code: started.login_code, mode: "claim-anon-session" }),
      CLI_AUTH_MESSAGES.anonSessionGone,
    );
    expect((await rowOf(started.polling_code)).anonRefreshTokenSealed).toBe(sealed);
    expect(await sessionCount(anon.user_id)).toBe(sessionsBefore);
    expect(await refreshes(server, project.client, anon.refresh_token)).toBe(true);
  });

  it("is refused without an anonymous session, and after completion", async () => {
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
    // The CLI keeps its own session: it was not taken over.
    expect(await refreshes(server, project.client, anon.refresh_token)).toBe(true);
  });
});

describe("concurrency", () => {
  it("two concurrent claims: exactly one gets the session, the other is told it was taken", async () => {
    const anon = await anonymousUser(server, project.client);
    const started = await startCli(server, project.client, { anon_refresh_token: anon.refresh_token });
    const claim = () => completeCli(server, project.client, { login_code: started.login_code, mode: "claim-anon-session" });
    const answers = await Promise.all([claim(), claim()]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 400]);
    expect(answers.find((r) => r.status === 200)!.body.refresh_token).toBe(anon.refresh_token);
    expectRefusal(
      answers.find((r) => r.status === 400)!,
      CLI_AUTH_MESSAGES.noAnonSession,
    );
    expect(await sessionCount(anon.user_id)).toBe(1);
  });

  it("a claim from a stale read (a completion came first) changes nothing", async () => {
    const anon = await anonymousUser(server, project.client);
    const started = await startCli(server, project.client, { anon_refresh_token: anon.refresh_token });
    const read = await rowOf(started.polling_code);
    const browser = await signUpUser(server, project);
    await completeCli(server, project.client, { login_code: started.login_code, refresh_token: browser.refreshToken });

    const services = server.instance.services;
    const ctx = { services, project: (await services.projects.get(project.id))!, branchId: "main" };
    await expect(takeOverAnonSession(ctx, read)).rejects.toThrow(CLI_AUTH_MESSAGES.noAnonSession);
    expect(await refreshes(server, project.client, anon.refresh_token)).toBe(true);
    expect(await sessionCount(anon.user_id)).toBe(1);
    expect((await pollCli(server, project.client, started.polling_code)).body).toEqual({
      status: "success",
      refresh_token: browser.refreshToken,
    });
  });

  it("a completion racing a claim: the completion stands, and the CLI keeps its session either way", async () => {
    const anon = await anonymousUser(server, project.client);
    const started = await startCli(server, project.client, { anon_refresh_token: anon.refresh_token });
    const browser = await signUpUser(server, project);
    const [completed, claimed] = await Promise.all([
      completeCli(server, project.client, { login_code: started.login_code, refresh_token: browser.refreshToken }),
      completeCli(server, project.client, { login_code: started.login_code, mode: "claim-anon-session" }),
    ]);
    expect(completed.status, completed.text).toBe(200);
    if (claimed.status === 200) {
      // The claim went first: the browser shares the CLI's session.
      expect(claimed.body.refresh_token).toBe(anon.refresh_token);
    } else {
      expect([CLI_AUTH_MESSAGES.invalidLoginCode, CLI_AUTH_MESSAGES.noAnonSession]).toContain(claimed.text);
    }
    expect(await refreshes(server, project.client, anon.refresh_token)).toBe(true);
    // Either way the anonymous user has exactly one session, and the CLI gets the confirming user's.
    expect(await sessionCount(anon.user_id)).toBe(1);
    expect((await rowOf(started.polling_code)).anonRefreshTokenSealed).toBeNull();
    expect((await pollCli(server, project.client, started.polling_code)).body).toEqual({
      status: "success",
      refresh_token: browser.refreshToken,
    });
  });
});
