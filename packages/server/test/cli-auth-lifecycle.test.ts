/**
 * What happens to a CLI login request over time (see domain/auth/cli/poll.ts
 * and attempts.ts): a confirmed session that ends before the CLI polls sends
 * the request back to waiting; a sealed token that cannot be opened does not
 * spend the login; requests that expired more than a day ago are deleted,
 * a hundred at a time, when a new login starts.
 */
import { eq, lt } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cliAuthAttempts } from "../src/db/schema/index.ts";
import { CLI_AUTH_KEPT_AFTER_EXPIRY_MILLIS, CLI_AUTH_SWEEP_ROWS, codeDigest } from "../src/capabilities/cli-login/domain/attempts.ts";
import { randomCode } from "../src/lib/secrets.ts";
import { completeCli, pollCli, rowOf as storedRowOf, signOut, startCli, userIdOfRefreshToken } from "./cli-fixtures.ts";
import { createProject, serverWithProject, signUpUser, type Project } from "./fixtures.ts";
import { expectKnownError, type TestServer } from "./harness.ts";

let server: TestServer;
let project: Project;
let other: Project;

beforeAll(async () => {
  ({ server, project } = await serverWithProject());
  other = await createProject(server);
});
afterAll(() => server?.close());

const rowOf = (pollingCode: string) => storedRowOf(server, pollingCode);

/** A login confirmed by a new user; the user and the login. */
async function confirmedLogin() {
  const browser = await signUpUser(server, project);
  const started = await startCli(server, project.client);
  const done = await completeCli(server, project.client, { login_code: started.login_code, refresh_token: browser.refreshToken });
  expect(done.status, done.text).toBe(200);
  return { browser, started };
}

describe("a confirmed session that ended before the CLI polled", () => {
  /** The poll answers waiting and the request is open again; confirming again with a live session then goes through. */
  async function expectReopened(started: { polling_code: string; login_code: string }) {
    const poll = await pollCli(server, project.client, started.polling_code);
    expect(poll.status, poll.text).toBe(200);
    expect(poll.body).toEqual({ status: "waiting" });
    const row = await rowOf(started.polling_code);
    expect(row).toMatchObject({ refreshTokenSealed: null, completedAt: null, usedAt: null });

    const again = await signUpUser(server, project);
    const done = await completeCli(server, project.client, { login_code: started.login_code, refresh_token: again.refreshToken });
    expect(done.status, done.text).toBe(200);
    const success = await pollCli(server, project.client, started.polling_code);
    expect(success.status, success.text).toBe(201);
    expect(success.body).toEqual({ status: "success", refresh_token: again.refreshToken });
    expect(await userIdOfRefreshToken(server, project.client, again.refreshToken)).toBe(again.userId);
  }

  it("signed out in the browser", async () => {
    const { browser, started } = await confirmedLogin();
    await signOut(server, browser.as, browser.refreshToken);
    await expectReopened(started);
  });

  it("revoked by the server (DELETE /auth/sessions/{id})", async () => {
    const { browser, started } = await confirmedLogin();
    const list = await server.request("/auth/sessions", { as: project.server, query: { user_id: browser.userId } });
    expect(list.status, list.text).toBe(200);
    for (const session of list.body.items as { id: string }[]) {
      const res = await server.request(`/auth/sessions/${session.id}`, {
        method: "DELETE",
        as: project.server,
        query: { user_id: browser.userId },
      });
      expect(res.status, res.text).toBe(200);
    }
    await expectReopened(started);
  });

  it("its user deleted", async () => {
    const { browser, started } = await confirmedLogin();
    const res = await server.request(`/users/${browser.userId}`, { method: "DELETE", as: project.server });
    expect(res.status, res.text).toBe(200);
    await expectReopened(started);
  });
});

describe("a sealed token that cannot be opened", () => {
  it("fails the poll without spending the login", async () => {
    const { browser, started } = await confirmedLogin();
    const db = server.instance.services.db;
    const { id, refreshTokenSealed } = await rowOf(started.polling_code);
    // As after a change of the server secret.
    await db.update(cliAuthAttempts).set({ refreshTokenSealed: "not-a-sealed-token" }).where(eq(cliAuthAttempts.id, id));
    const failed = await pollCli(server, project.client, started.polling_code);
    expect(failed.status).toBe(500);
    expect(await rowOf(started.polling_code)).toMatchObject({ refreshTokenSealed: "not-a-sealed-token", usedAt: null });

    await db.update(cliAuthAttempts).set({ refreshTokenSealed }).where(eq(cliAuthAttempts.id, id));
    const success = await pollCli(server, project.client, started.polling_code);
    expect(success.status, success.text).toBe(201);
    expect(success.body.refresh_token).toBe(browser.refreshToken);
  });
});

describe("housekeeping: POST /auth/cli deletes requests that expired over a day ago", () => {
  const db = () => server.instance.services.db;
  const longExpired = () => lt(cliAuthAttempts.expiresAt, new Date(server.clock.now() - CLI_AUTH_KEPT_AFTER_EXPIRY_MILLIS));
  const countLongExpired = async () => (await db().select({ id: cliAuthAttempts.id }).from(cliAuthAttempts).where(longExpired())).length;

  /** Stored directly, as if started long ago; its polling code. */
  async function storedRequest(projectId: string, expiresAt: Date): Promise<string> {
    const pollingCode = randomCode(45);
    await db()
      .insert(cliAuthAttempts)
      .values({
        projectId,
        branchId: "main",
        pollingCodeHash: codeDigest(pollingCode),
        loginCodeHash: codeDigest(randomCode(45)),
        refreshTokenSealed: "sealed",
        anonRefreshTokenSealed: "sealed",
        expiresAt,
      });
    return pollingCode;
  }

  it(`deletes at most ${CLI_AUTH_SWEEP_ROWS} per request, across projects, and keeps what expired less than a day ago`, async () => {
    const dayAndMore = new Date(server.clock.now() - CLI_AUTH_KEPT_AFTER_EXPIRY_MILLIS - 60_000);
    const old = await storedRequest(project.id, dayAndMore);
    const oldOfOther = await storedRequest(other.id, dayAndMore);
    const recent = await storedRequest(project.id, new Date(server.clock.now() - 3600_000));
    const pile = Array.from({ length: CLI_AUTH_SWEEP_ROWS + 48 }, () => storedRequest(project.id, dayAndMore));
    await Promise.all(pile);
    const before = await countLongExpired();
    expect(before).toBe(CLI_AUTH_SWEEP_ROWS + 50);

    await startCli(server, project.client);
    expect(await countLongExpired()).toBe(before - CLI_AUTH_SWEEP_ROWS);
    await startCli(server, other.client);
    expect(await countLongExpired()).toBe(0);

    expectKnownError(await pollCli(server, project.client, old), "INVALID_POLLING_CODE", 400);
    expectKnownError(await pollCli(server, other.client, oldOfOther), "INVALID_POLLING_CODE", 400);
    // Kept a day so a late CLI still hears "expired"; the tokens it held were dropped when it was seen expired.
    expect((await pollCli(server, project.client, recent)).body).toEqual({ status: "expired" });
    expect(await rowOf(recent)).toMatchObject({ refreshTokenSealed: null, anonRefreshTokenSealed: null });
  });
});
