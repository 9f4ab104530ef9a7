/**
 * An access token is refused as soon as its session ends (signed out, revoked, its lifetime over, its user
 * deleted), not when the token itself expires: on the replica that ended it at once, on the others as soon as
 * they hear of it. The answer is the one of an expired token, on which clients refresh; the refresh of an ended
 * session fails, and they are signed out.
 */
import { StackClientApp } from "@stackframe/js";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createProject, PASSWORD, sessionIdOf, signUpOwner, signUpUser, type EndUser, type Project } from "./fixtures.ts";
import { createTestServer, expectKnownError, type TestResponse, type TestServer } from "./harness.ts";

const onPostgres = process.env.LATCHKEY_TEST_DB === "postgres";

function expectSessionEnded(res: TestResponse, user: Pick<EndUser, "userId" | "accessToken">, projectId: string): void {
  expectKnownError(res, "ACCESS_TOKEN_EXPIRED", 401);
  expect(res.body.details).toEqual({
    expired_at_millis: null,
    project_id: projectId,
    user_id: user.userId,
    refresh_token_id: sessionIdOf(user.accessToken),
  });
}

/** How many times `server` read a session's liveness from the database. */
function livenessReads(server: TestServer): number {
  return server.instance.services.caches.sessionLivenessReads;
}

/** Another session of `user`: a password sign-in. */
async function signInAgain(server: TestServer, project: Project, user: EndUser): Promise<EndUser> {
  const res = await server.request("/auth/password/sign-in", {
    method: "POST",
    as: project.client,
    body: { email: user.email, password: PASSWORD },
  });
  expect(res.status, res.text).toBe(200);
  return {
    ...user,
    accessToken: res.body.access_token,
    refreshToken: res.body.refresh_token,
    as: { ...project.client, accessToken: res.body.access_token },
  };
}

describe("an access token whose session ended", () => {
  let server: TestServer;
  let project: Project;
  let baseUrl: string;
  beforeAll(async () => {
    server = await createTestServer();
    baseUrl = await server.listen();
    project = await createProject(server);
  });
  afterAll(() => server?.close());

  const me = (user: EndUser) => server.request("/users/me", { as: user.as });

  it("is refused at once after signing out, while another session of the user keeps working", async () => {
    const user = await signUpUser(server, project);
    const other = await signInAgain(server, project, user);
    expect((await me(user)).status).toBe(200);
    expect((await me(other)).status).toBe(200);
    const signedOut = await server.request("/auth/sessions/current", { method: "DELETE", as: user.as });
    expect(signedOut.status, signedOut.text).toBe(200);
    expectSessionEnded(await me(user), user, project.id);
    // Signing out again with it is refused the same way, and with its refresh token alone as before.
    expectSessionEnded(await server.request("/auth/sessions/current", { method: "DELETE", as: user.as }), user, project.id);
    expectKnownError(
      await server.request("/auth/sessions/current", {
        method: "DELETE",
        as: project.client,
        headers: { "x-stack-refresh-token": user.refreshToken },
      }),
      "REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED",
      401,
    );
    expect((await me(other)).status).toBe(200);
  });

  it("is refused once revoked by the server, used before or not", async () => {
    const user = await signUpUser(server, project);
    const unused = await signInAgain(server, project, user);
    const kept = await signInAgain(server, project, user);
    expect((await me(user)).status).toBe(200);
    for (const ended of [user, unused]) {
      const res = await server.request(`/auth/sessions/${sessionIdOf(ended.accessToken)}`, { method: "DELETE", as: project.server });
      expect(res.status, res.text).toBe(200);
      expectSessionEnded(await me(ended), ended, project.id);
    }
    expect((await me(kept)).status).toBe(200);
  });

  it("is refused once the user revoked it from another session, or an administrator did", async () => {
    const user = await signUpUser(server, project);
    const other = await signInAgain(server, project, user);
    const third = await signInAgain(server, project, user);
    expect((await me(other)).status).toBe(200);
    const byUser = await server.request(`/auth/sessions/${sessionIdOf(other.accessToken)}`, {
      method: "DELETE",
      as: user.as,
      query: { user_id: "me" },
    });
    expect(byUser.status, byUser.text).toBe(200);
    expectSessionEnded(await me(other), other, project.id);
    const byAdmin = await server.request(`/auth/sessions/${sessionIdOf(third.accessToken)}`, { method: "DELETE", as: project.admin });
    expect(byAdmin.status, byAdmin.text).toBe(200);
    expectSessionEnded(await me(third), third, project.id);
    expect((await me(user)).status).toBe(200);
  });

  it("is refused once a password change ended it; the session that changed it keeps working", async () => {
    const user = await signUpUser(server, project);
    const other = await signInAgain(server, project, user);
    expect((await me(other)).status).toBe(200);
    const changed = await server.request("/auth/password/update", {
      method: "POST",
      as: user.as,
      body: { old_password: PASSWORD, new_password: "another passphrase entirely" },
    });
    expect(changed.status, changed.text).toBe(200);
    expectSessionEnded(await me(other), other, project.id);
    expect((await me(user)).status).toBe(200);
  });

  it("is refused once the session's own lifetime is over, though the token has not expired", async () => {
    const user = await signUpUser(server, project);
    const created = await server.request("/auth/sessions", {
      method: "POST",
      as: project.server,
      body: { user_id: user.userId, expires_in_millis: 60_000 },
    });
    expect(created.status, created.text).toBe(200);
    const short: EndUser = {
      ...user,
      accessToken: created.body.access_token,
      as: { ...project.client, accessToken: created.body.access_token },
    };
    expect((await me(short)).status).toBe(200);
    await server.clock.ahead(2 * 60_000, async () => {
      expectSessionEnded(await me(short), short, project.id);
      expect((await me(user)).status).toBe(200);
    });
  });

  it("of a deleted user finds no user, as any token of a deleted user", async () => {
    const user = await signUpUser(server, project);
    expect((await me(user)).status).toBe(200);
    const deleted = await server.request(`/users/${user.userId}`, { method: "DELETE", as: project.server });
    expect(deleted.status, deleted.text).toBe(200);
    expectKnownError(await me(user), "CANNOT_GET_OWN_USER_WITHOUT_USER", 400);
    // Its sessions went with it, and so did what the cache knew of them.
    await server.cachesCaughtUp();
    expect(server.instance.services.caches.liveSessions.has(sessionIdOf(user.accessToken))).toBe(false);
  });

  it("reads the database at most once however often it is sent", async () => {
    const user = await signUpUser(server, project);
    const unused = await signInAgain(server, project, user);
    expect((await me(user)).status).toBe(200);
    const revoke = (ended: EndUser) =>
      server.request(`/auth/sessions/${sessionIdOf(ended.accessToken)}`, { method: "DELETE", as: project.server });
    // Known here, ended on the spot: no read at all.
    expect((await revoke(user)).status).toBe(200);
    let before = livenessReads(server);
    for (let i = 0; i < 20; i++) expectSessionEnded(await me(user), user, project.id);
    expect(livenessReads(server) - before).toBe(0);
    // Never seen here: one read finds it gone, and that is remembered.
    expect((await revoke(unused)).status).toBe(200);
    before = livenessReads(server);
    await Promise.all(Array.from({ length: 20 }, async () => expectSessionEnded(await me(unused), unused, project.id)));
    for (let i = 0; i < 20; i++) expectSessionEnded(await me(unused), unused, project.id);
    expect(livenessReads(server) - before).toBe(1);
    // A live session, once known, is not read again either.
    const live = await signInAgain(server, project, user);
    expect((await me(live)).status).toBe(200);
    before = livenessReads(server);
    for (let i = 0; i < 20; i++) expect((await me(live)).status).toBe(200);
    expect(livenessReads(server) - before).toBe(0);
  });

  it("of a project owner who signed out no longer administers the project", async () => {
    const owner = await signUpOwner(server);
    const owned = await createProject(server, owner);
    expect((await server.request("/projects/current", { as: owned.ownerAdmin })).status).toBe(200);
    const signedOut = await server.request("/auth/sessions/current", {
      method: "DELETE",
      as: { ...server.internal.client, accessToken: owner.accessToken },
    });
    expect(signedOut.status, signedOut.text).toBe(200);
    expectKnownError(await server.request("/projects/current", { as: owned.ownerAdmin }), "ADMIN_ACCESS_TOKEN_EXPIRED", 401);
  });

  it("the official SDK, its session revoked by the server, is signed out rather than failing", async () => {
    const user = await signUpUser(server, project);
    const app = new StackClientApp({
      projectId: project.id,
      publishableClientKey: project.client.publishableClientKey!,
      baseUrl,
      tokenStore: "memory",
      redirectMethod: "none",
    });
    const signIn = await app.signInWithCredential({ email: user.email, password: PASSWORD, noRedirect: true });
    expect(signIn.status).toBe("ok");
    const signedIn = await app.getUser({ or: "throw" });
    const { accessToken } = await signedIn.currentSession.getTokens();
    const revoked = await server.request(`/auth/sessions/${sessionIdOf(accessToken!)}`, { method: "DELETE", as: project.server });
    expect(revoked.status, revoked.text).toBe(200);
    const spy = vi.spyOn(globalThis, "fetch");
    try {
      expect(await app.getUser()).toBeNull();
      // The token refused, the refresh refused, the call retried without a user: then it knows it is signed out.
      const paths = spy.mock.calls.map(([input]) => new URL(input instanceof Request ? input.url : String(input)).pathname);
      expect(paths).toEqual(["/api/v1/users/me", "/api/v1/auth/oauth/token", "/api/v1/users/me"]);
      spy.mockClear();
      expect(await app.getUser()).toBeNull();
      expect(spy.mock.calls).toHaveLength(0);
    } finally {
      spy.mockRestore();
    }
  });

  it("the official SDK signs out without an error after its session was revoked", async () => {
    const user = await signUpUser(server, project);
    const app = new StackClientApp({
      projectId: project.id,
      publishableClientKey: project.client.publishableClientKey!,
      baseUrl,
      tokenStore: { accessToken: user.accessToken, refreshToken: user.refreshToken },
      redirectMethod: "none",
    });
    const signedIn = await app.getUser({ or: "throw" });
    const revoked = await server.request(`/auth/sessions/${sessionIdOf(user.accessToken)}`, { method: "DELETE", as: project.server });
    expect(revoked.status, revoked.text).toBe(200);
    await signedIn.signOut();
    expect(await app.getUser()).toBeNull();
  });
});

// Two servers on one database need PostgreSQL: an embedded database belongs to one process.
describe.runIf(onPostgres)("an access token whose session ended on another replica", () => {
  let a: TestServer;
  let b: TestServer;
  let project: Project;
  beforeAll(async () => {
    a = await createTestServer();
    b = await createTestServer({}, { replicaOf: a });
    project = await createProject(a);
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  /** Resolves when `server` has applied the end of `sessionId`, heard from whichever replica ended it. */
  function heardEnd(server: TestServer, sessionId: string): Promise<void> {
    return new Promise((resolve) => {
      const stop = server.instance.services.bus.onEvent((event) => {
        if (event.t === "session" && event.id === sessionId) {
          stop();
          resolve();
        }
      });
    });
  }

  it("is refused there as soon as it hears of it, without reading the database", async () => {
    const user = await signUpUser(a, project);
    const other = await signInAgain(a, project, user);
    expect((await b.request("/users/me", { as: user.as })).status).toBe(200); // known live on b
    expect((await b.request("/users/me", { as: other.as })).status).toBe(200);
    const heard = heardEnd(b, sessionIdOf(user.accessToken));
    expect((await a.request("/auth/sessions/current", { method: "DELETE", as: user.as })).status).toBe(200);
    await heard;
    const before = livenessReads(b);
    expectSessionEnded(await b.request("/users/me", { as: user.as }), user, project.id);
    expect(livenessReads(b)).toBe(before);
    expect((await b.request("/users/me", { as: other.as })).status).toBe(200);
  });

  it("is refused there once revoked by the server API on the other", async () => {
    const user = await signUpUser(a, project);
    expect((await b.request("/users/me", { as: user.as })).status).toBe(200);
    const heard = heardEnd(b, sessionIdOf(user.accessToken));
    const revoked = await a.request(`/auth/sessions/${sessionIdOf(user.accessToken)}`, { method: "DELETE", as: project.server });
    expect(revoked.status, revoked.text).toBe(200);
    await heard;
    expectSessionEnded(await b.request("/users/me", { as: user.as }), user, project.id);
  });

  it("of a user deleted on the other finds no user there", async () => {
    const user = await signUpUser(a, project);
    expect((await b.request("/users/me", { as: user.as })).status).toBe(200);
    expect((await a.request(`/users/${user.userId}`, { method: "DELETE", as: project.server })).status).toBe(200);
    await b.cachesCaughtUp();
    expectKnownError(await b.request("/users/me", { as: user.as }), "CANNOT_GET_OWN_USER_WITHOUT_USER", 400);
    expect(b.instance.services.caches.liveSessions.has(sessionIdOf(user.accessToken))).toBe(false);
  });
});
