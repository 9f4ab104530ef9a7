/**
 * A password change ends the user's other sessions: their own change keeps
 * the session that made it, a server's PATCH of `password` ends them all. The
 * revoked refresh tokens fail at once, also when a refresh had cached them.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  PASSWORD,
  refreshWith,
  serverWithProject,
  signInAgain,
  sessionIdOf,
  signUpUser,
  tokenEndpointRefresh,
  type Project,
} from "./fixtures.ts";
import { expectKnownError, type TestServer } from "./harness.ts";

let server: TestServer;
let project: Project;

beforeAll(async () => ({ server, project } = await serverWithProject()));
afterAll(() => server?.close());

/** Refreshes once so the session sits in the cache the next refresh reads. */
async function refreshed(refreshToken: string) {
  const res = await refreshWith(server, project, refreshToken);
  expect(res.status, res.text).toBe(200);
}

const listSessions = (userId: string) => server.request("/auth/sessions", { as: project.server, query: { user_id: userId } });

describe("POST /auth/password/update", () => {
  it("revokes the user's other sessions and keeps the current one", async () => {
    const user = await signUpUser(server, project);
    const other = await signInAgain(server, project, user);
    await refreshed(other.refreshToken);
    expect((await tokenEndpointRefresh(server, project, other.refreshToken)).status).toBe(200);
    await refreshed(user.refreshToken);

    const res = await server.request("/auth/password/update", {
      method: "POST",
      as: user.as,
      body: { old_password: PASSWORD, new_password: "a brand new passphrase" },
    });
    expect(res.status, res.text).toBe(200);

    expectKnownError(await refreshWith(server, project, other.refreshToken), "REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED", 401);
    expectKnownError(await tokenEndpointRefresh(server, project, other.refreshToken), "REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED", 401);
    await refreshed(user.refreshToken);
    const sessions = await listSessions(user.userId);
    expect(sessions.body.items.map((s: { id: string }) => s.id)).toEqual([sessionIdOf(user.accessToken)]);
  });

  it("a refused change (wrong old password) revokes nothing", async () => {
    const user = await signUpUser(server, project);
    const other = await signInAgain(server, project, user);
    const res = await server.request("/auth/password/update", {
      method: "POST",
      as: user.as,
      body: { old_password: "not the password", new_password: "a brand new passphrase" },
    });
    expectKnownError(res, "PASSWORD_CONFIRMATION_MISMATCH", 400);
    await refreshed(other.refreshToken);
    await refreshed(user.refreshToken);
  });

  it("leaves other users' sessions alone", async () => {
    const user = await signUpUser(server, project);
    const bystander = await signUpUser(server, project);
    await refreshed(bystander.refreshToken);
    const res = await server.request("/auth/password/update", {
      method: "POST",
      as: user.as,
      body: { old_password: PASSWORD, new_password: "a brand new passphrase" },
    });
    expect(res.status, res.text).toBe(200);
    await refreshed(bystander.refreshToken);
  });
});

describe("server PATCH of password", () => {
  it("revokes every session of the user, cached or not", async () => {
    const user = await signUpUser(server, project);
    const other = await signInAgain(server, project, user);
    await refreshed(user.refreshToken);
    const res = await server.request(`/users/${user.userId}`, {
      method: "PATCH",
      as: project.server,
      body: { password: "set by the server" },
    });
    expect(res.status, res.text).toBe(200);
    expectKnownError(await refreshWith(server, project, user.refreshToken), "REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED", 401);
    expectKnownError(await refreshWith(server, project, other.refreshToken), "REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED", 401);
    expect((await listSessions(user.userId)).body.items).toEqual([]);
    // The new password signs in.
    await signInAgain(server, project, user, "set by the server");
  });

  it("through /users/me as the server too; a PATCH without a password revokes nothing", async () => {
    const user = await signUpUser(server, project);
    const untouched = await server.request(`/users/${user.userId}`, {
      method: "PATCH",
      as: project.server,
      body: { display_name: "Still signed in" },
    });
    expect(untouched.status, untouched.text).toBe(200);
    await refreshed(user.refreshToken);

    const res = await server.request("/users/me", {
      method: "PATCH",
      as: { ...project.server, accessToken: user.accessToken },
      body: { password: "set by the server" },
    });
    expect(res.status, res.text).toBe(200);
    expectKnownError(await refreshWith(server, project, user.refreshToken), "REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED", 401);
  });
});
