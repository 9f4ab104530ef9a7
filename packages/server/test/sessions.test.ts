/** Sessions: list, revoke, server-created and impersonation sessions, anonymous sign-up. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  expectPlainError,
  expectSchemaError,
  jwtPayload,
  refreshWith,
  serverWithProject,
  sessionIdOf,
  signInAgain,
  signUpUser,
  tokenEndpointRefresh,
  type Project,
  UNKNOWN_UUID,
} from "./fixtures.ts";
import { expectKnownError, type Auth, type TestServer } from "./harness.ts";

const SESSION_KEYS = ["created_at", "id", "is_current_session", "is_impersonation", "last_used_at", "user_id"];

let server: TestServer;
let project: Project;

beforeAll(async () => ({ server, project } = await serverWithProject()));
afterAll(() => server?.close());

const listSessions = (as: Auth, userId = "me") => server.request("/auth/sessions", { as, query: { user_id: userId } });

describe("GET /auth/sessions", () => {
  it("lists the user's sessions newest first, marking the current one", async () => {
    const user = await signUpUser(server, project);
    const s2 = await signInAgain(server, project, user);
    const s3 = await signInAgain(server, project, user);
    const expected = [s3.sessionId, s2.sessionId, sessionIdOf(user.accessToken)];

    const res = await listSessions(s2.as);
    expect(res.status, res.text).toBe(200);
    expect(res.body.is_paginated).toBe(false);
    expect(res.body).not.toHaveProperty("pagination");
    expect(res.body.items.map((s: { id: string }) => s.id)).toEqual(expected);
    expect(res.body.items.map((s: { is_current_session: boolean }) => s.is_current_session)).toEqual([false, true, false]);
    for (const item of res.body.items) {
      for (const key of SESSION_KEYS) expect(item).toHaveProperty(key);
      expect(Object.keys(item).filter((k) => !SESSION_KEYS.includes(k))).toEqual(
        item.last_used_at_end_user_ip_info ? ["last_used_at_end_user_ip_info"] : [],
      );
      expect(item.user_id).toBe(user.userId);
      expect(item.is_impersonation).toBe(false);
      expect(typeof item.created_at).toBe("number");
      expect(typeof item.last_used_at).toBe("number");
    }
    const createdAt = res.body.items.map((s: { created_at: number }) => s.created_at);
    expect([...createdAt].sort((a, b) => b - a)).toEqual(createdAt);

    // The user's own id works like "me".
    const byId = await listSessions(s3.as, user.userId);
    expect(byId.body.items.map((s: { id: string }) => s.id)).toEqual(expected);
    expect(byId.body.items[0].is_current_session).toBe(true);
    // Server sees the same sessions, none of them current.
    const asServer = await listSessions(project.server, user.userId);
    expect(asServer.body.items.map((s: { id: string }) => s.id)).toEqual(expected);
    expect(asServer.body.items.every((s: { is_current_session: boolean }) => !s.is_current_session)).toBe(true);
  });

  it("client asking for another user's sessions → 403 plain text", async () => {
    const user = await signUpUser(server, project);
    const other = await signUpUser(server, project);
    const res = await listSessions(user.as, other.userId);
    expectPlainError(res, 403);
    expect(res.text).not.toContain(sessionIdOf(other.accessToken));
  });

  it("user_id is required; must be a UUID or me; me needs a user", async () => {
    const user = await signUpUser(server, project);
    expectSchemaError(await server.request("/auth/sessions", { as: user.as }), "GET", "/auth/sessions", ["query.user_id must be defined"]);
    expectSchemaError(await listSessions(user.as, "someone"), "GET", "/auth/sessions", ["query.user_id must be a valid UUID"]);
    expectKnownError(await listSessions(project.client), "CANNOT_GET_OWN_USER_WITHOUT_USER", 400);
    expectKnownError(await listSessions(project.server), "CANNOT_GET_OWN_USER_WITHOUT_USER", 400);
  });
});

describe("DELETE /auth/sessions/{id}", () => {
  it("revokes another own session: its refresh token fails at once", async () => {
    const user = await signUpUser(server, project);
    const other = await signInAgain(server, project, user);
    expect((await refreshWith(server, project, other.refreshToken)).status).toBe(200);

    const res = await server.request(`/auth/sessions/${other.sessionId}`, { method: "DELETE", as: user.as, query: { user_id: "me" } });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ success: true });
    expectKnownError(await refreshWith(server, project, other.refreshToken), "REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED", 401);
    const list = await listSessions(user.as);
    expect(list.body.items.map((s: { id: string }) => s.id)).toEqual([sessionIdOf(user.accessToken)]);
    // The current session is untouched.
    expect((await refreshWith(server, project, user.refreshToken)).status).toBe(200);
    // Deleting it again: gone.
    expectPlainError(await server.request(`/auth/sessions/${other.sessionId}`, { method: "DELETE", as: user.as }), 404);
  });

  it("the current session → CANNOT_DELETE_CURRENT_SESSION, and it keeps working", async () => {
    const user = await signUpUser(server, project);
    const res = await server.request(`/auth/sessions/${sessionIdOf(user.accessToken)}`, { method: "DELETE", as: user.as });
    expectKnownError(res, "CANNOT_DELETE_CURRENT_SESSION", 400);
    expect((await refreshWith(server, project, user.refreshToken)).status).toBe(200);
  });

  it("someone else's session as client → 404 (or 403 with their user_id), and it survives", async () => {
    const user = await signUpUser(server, project);
    const victim = await signUpUser(server, project);
    const victimSession = sessionIdOf(victim.accessToken);
    expectPlainError(await server.request(`/auth/sessions/${victimSession}`, { method: "DELETE", as: user.as }), 404);
    expectPlainError(
      await server.request(`/auth/sessions/${victimSession}`, { method: "DELETE", as: user.as, query: { user_id: victim.userId } }),
      403,
    );
    expect((await refreshWith(server, project, victim.refreshToken)).status).toBe(200);
    expect((await listSessions(victim.as)).body.items).toHaveLength(1);
  });

  it("server may delete any session of the project; unknown id → 404; bad id → SCHEMA_ERROR", async () => {
    const user = await signUpUser(server, project);
    const res = await server.request(`/auth/sessions/${sessionIdOf(user.accessToken)}`, { method: "DELETE", as: project.server });
    expect(res.status, res.text).toBe(200);
    expectKnownError(await refreshWith(server, project, user.refreshToken), "REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED", 401);
    expectPlainError(await server.request(`/auth/sessions/${UNKNOWN_UUID}`, { method: "DELETE", as: project.server }), 404);
    expectSchemaError(
      await server.request("/auth/sessions/abc", { method: "DELETE", as: project.server }),
      "DELETE",
      "/auth/sessions/abc",
      ["params.session_id must be a valid UUID"],
    );
  });

  it("DELETE /auth/sessions/current signs out; twice → the token is refused, the refresh token not found", async () => {
    const user = await signUpUser(server, project);
    const res = await server.request("/auth/sessions/current", { method: "DELETE", as: user.as });
    expect(res.body).toEqual({ success: true });
    expectKnownError(await refreshWith(server, project, user.refreshToken), "REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED", 401);
    // The signed-out session's access token is refused as an expired one, on which clients refresh (and fail).
    expectKnownError(await server.request("/auth/sessions/current", { method: "DELETE", as: user.as }), "ACCESS_TOKEN_EXPIRED", 401);
    expectKnownError(
      await server.request("/auth/sessions/current", {
        method: "DELETE",
        as: project.client,
        headers: { "x-stack-refresh-token": user.refreshToken },
      }),
      "REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED",
      401,
    );
  });
});

describe("POST /auth/sessions (server)", () => {
  it("creates a session whose tokens work", async () => {
    const user = await signUpUser(server, project);
    const res = await server.request("/auth/sessions", {
      method: "POST",
      as: project.server,
      body: { user_id: user.userId, expires_in_millis: 3_600_000, is_impersonation: false },
    });
    expect(res.status, res.text).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(["access_token", "refresh_token"]);
    expect(jwtPayload(res.body.access_token).sub).toBe(user.userId);
    const me = await server.request("/users/me", { as: { ...project.client, accessToken: res.body.access_token } });
    expect(me.body.id).toBe(user.userId);
    const refreshed = await refreshWith(server, project, res.body.refresh_token);
    expect(refreshed.status, refreshed.text).toBe(200);
    expect(jwtPayload(refreshed.body.access_token).refresh_token_id).toBe(sessionIdOf(res.body.access_token));
    // Defaults: one year, not impersonation; the user now has two sessions.
    const defaults = await server.request("/auth/sessions", { method: "POST", as: project.server, body: { user_id: user.userId } });
    expect(defaults.status, defaults.text).toBe(200);
    expect((await listSessions(user.as)).body.items).toHaveLength(3);
  });

  it("unknown user → USER_ID_DOES_NOT_EXIST", async () => {
    const res = await server.request("/auth/sessions", { method: "POST", as: project.server, body: { user_id: UNKNOWN_UUID } });
    expectKnownError(res, "USER_ID_DOES_NOT_EXIST", 400);
    expect(res.body.details).toEqual({ user_id: UNKNOWN_UUID });
  });

  it("expires_in_millis over 31708800000 → SCHEMA_ERROR; the maximum itself is fine", async () => {
    const user = await signUpUser(server, project);
    const res = await server.request("/auth/sessions", {
      method: "POST",
      as: project.server,
      body: { user_id: user.userId, expires_in_millis: 31_708_800_001 },
    });
    expectSchemaError(res, "POST", "/auth/sessions", ["body.expires_in_millis must be less than or equal to 31708800000"]);
    expect((await listSessions(user.as)).body.items).toHaveLength(1);
    const max = await server.request("/auth/sessions", {
      method: "POST",
      as: project.server,
      body: { user_id: user.userId, expires_in_millis: 31_708_800_000 },
    });
    expect(max.status, max.text).toBe(200);
  });

  it("is server/admin only; body is validated", async () => {
    const user = await signUpUser(server, project);
    expectKnownError(
      await server.request("/auth/sessions", { method: "POST", as: user.as, body: { user_id: user.userId } }),
      "INSUFFICIENT_ACCESS_TYPE",
      401,
    );
    expectSchemaError(
      await server.request("/auth/sessions", { method: "POST", as: project.server, body: { user_id: "me" } }),
      "POST",
      "/auth/sessions",
      ["body.user_id must be a valid UUID"],
    );
    expectSchemaError(
      await server.request("/auth/sessions", { method: "POST", as: project.server, body: { user_id: user.userId, forever: true } }),
      "POST",
      "/auth/sessions",
      ["body contains unknown properties: forever"],
    );
    expect((await listSessions(user.as)).body.items).toHaveLength(1);
  });

  it("impersonation sessions are hidden from client and server lists, shown to admin", async () => {
    const user = await signUpUser(server, project);
    const imp = await server.request("/auth/sessions", {
      method: "POST",
      as: project.server,
      body: { user_id: user.userId, is_impersonation: true },
    });
    expect(imp.status, imp.text).toBe(200);
    const impId = sessionIdOf(imp.body.access_token);
    const own = sessionIdOf(user.accessToken);

    expect((await listSessions(user.as)).body.items.map((s: { id: string }) => s.id)).toEqual([own]);
    expect((await listSessions(project.server, user.userId)).body.items.map((s: { id: string }) => s.id)).toEqual([own]);
    const asImpersonator = await listSessions({ ...project.client, accessToken: imp.body.access_token });
    expect(asImpersonator.body.items.map((s: { id: string }) => s.id)).toEqual([own]);

    for (const admin of [project.admin, project.ownerAdmin]) {
      const res = await listSessions(admin, user.userId);
      expect(res.status, res.text).toBe(200);
      expect(res.body.items.map((s: { id: string }) => s.id)).toEqual([impId, own]);
      expect(res.body.items.map((s: { is_impersonation: boolean }) => s.is_impersonation)).toEqual([true, false]);
    }
    // The impersonation tokens act as the user.
    expect((await server.request("/users/me", { as: { ...project.client, accessToken: imp.body.access_token } })).body.id).toBe(
      user.userId,
    );
  });

  it("an expired session cannot refresh", async () => {
    const user = await signUpUser(server, project);
    const res = await server.request("/auth/sessions", {
      method: "POST",
      as: project.server,
      body: { user_id: user.userId, expires_in_millis: 1 },
    });
    expect(res.status, res.text).toBe(200);
    server.clock.advance(1000);
    expectKnownError(await refreshWith(server, project, res.body.refresh_token), "REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED", 401);
    const zero = await server.request("/auth/sessions", {
      method: "POST",
      as: project.server,
      body: { user_id: user.userId, expires_in_millis: 0 },
    });
    expectKnownError(await refreshWith(server, project, zero.body.refresh_token), "REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED", 401);
    // Expired sessions are not listed.
    expect((await listSessions(user.as)).body.items.map((s: { id: string }) => s.id)).toEqual([sessionIdOf(user.accessToken)]);
  });
});

describe("refresh", () => {
  it("unknown, empty or absent refresh token → REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED", async () => {
    expectKnownError(await refreshWith(server, project, "0".repeat(45)), "REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED", 401);
    expectKnownError(await refreshWith(server, project, "x".repeat(500)), "REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED", 401);
    expectKnownError(
      await server.request("/auth/sessions/current/refresh", { method: "POST", as: project.client }),
      "REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED",
      401,
    );
  });

  it("a refresh marks the session used (last_used_at) and keeps its id", async () => {
    const user = await signUpUser(server, project);
    const before = (await listSessions(user.as)).body.items[0];
    server.clock.advance(1000);
    const refreshed = await refreshWith(server, project, user.refreshToken);
    expect(refreshed.status, refreshed.text).toBe(200);
    expect(sessionIdOf(refreshed.body.access_token)).toBe(before.id);
    const after = (await listSessions(user.as)).body.items[0];
    expect(after.id).toBe(before.id);
    expect(after.created_at).toBe(before.created_at);
    expect(after.last_used_at).toBeGreaterThan(before.last_used_at);
  });

  it("the token endpoint refreshes with form data and refuses a revoked token", async () => {
    const user = await signUpUser(server, project);
    const ok = await tokenEndpointRefresh(server, project, user.refreshToken);
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.token_type).toBe("Bearer");
    expect(jwtPayload(ok.body.access_token).sub).toBe(user.userId);
    await server.request(`/auth/sessions/${sessionIdOf(user.accessToken)}`, { method: "DELETE", as: project.server });
    expectKnownError(await tokenEndpointRefresh(server, project, user.refreshToken), "REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED", 401);
  });
});

describe("anonymous users", () => {
  it("sign-up returns tokens; the user is signed out unless x-stack-allow-anonymous-user: true", async () => {
    const res = await server.request("/auth/anonymous/sign-up", { method: "POST", as: project.client });
    expect(res.status, res.text).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(["access_token", "refresh_token", "user_id"]);
    const claims = jwtPayload(res.body.access_token);
    expect(claims.is_anonymous).toBe(true);
    expect(claims.sub).toBe(res.body.user_id);

    const as = { ...project.client, accessToken: res.body.access_token };
    expectKnownError(await server.request("/users/me", { as }), "ANONYMOUS_AUTHENTICATION_NOT_ALLOWED", 401);
    expectKnownError(await listSessions(as), "ANONYMOUS_AUTHENTICATION_NOT_ALLOWED", 401);
    const allowed = await server.request("/users/me", { as: { ...as, allowAnonymous: true } });
    expect(allowed.status, allowed.text).toBe(200);
    expect(allowed.body).toMatchObject({
      id: res.body.user_id,
      is_anonymous: true,
      primary_email: null,
      has_password: false,
      is_restricted: true,
      restricted_reason: { type: "anonymous" },
    });
    // Hidden from the default user list, present with include_anonymous.
    const list = await server.request("/users", { as: project.server });
    expect(list.body.items.map((u: { id: string }) => u.id)).not.toContain(res.body.user_id);
    const withAnon = await server.request("/users", { as: project.server, query: { include_anonymous: true } });
    expect(withAnon.body.items.map((u: { id: string }) => u.id)).toContain(res.body.user_id);
    // Its refresh token works and yields another anonymous token.
    const refreshed = await refreshWith(server, project, res.body.refresh_token);
    expect(refreshed.status, refreshed.text).toBe(200);
    expect(jwtPayload(refreshed.body.access_token).is_anonymous).toBe(true);
  });

  it("refuses a body", async () => {
    expectSchemaError(
      await server.request("/auth/anonymous/sign-up", { method: "POST", as: project.client, body: { email: "a@example.com" } }),
      "POST",
      "/auth/anonymous/sign-up",
      ["body contains unknown properties: email"],
    );
  });
});

describe("deleting a user", () => {
  it("kills all their sessions", async () => {
    const user = await signUpUser(server, project);
    const s2 = await signInAgain(server, project, user);
    const res = await server.request(`/users/${user.userId}`, { method: "DELETE", as: project.server });
    expect(res.status, res.text).toBe(200);
    for (const token of [user.refreshToken, s2.refreshToken]) {
      expectKnownError(await refreshWith(server, project, token), "REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED", 401);
    }
    expectKnownError(await server.request("/users/me", { as: s2.as }), "CANNOT_GET_OWN_USER_WITHOUT_USER", 400);
    const list = await listSessions(project.server, user.userId);
    expect(list.status === 200 ? list.body.items : []).toEqual([]);
  });
});
