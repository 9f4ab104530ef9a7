/**
 * Two replicas on one PostgreSQL database, as behind a load balancer: a write
 * through one must be seen by the other at once, although each keeps caches
 * (invalidation travels by NOTIFY when the write commits: each check waits
 * until the reading replica has heard every earlier commit's). PostgreSQL only:
 * an embedded database belongs to one process.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createProject, PASSWORD, patchProjectConfig, signUpUser, type Project } from "./fixtures.ts";
import { createTestServer, expectKnownError, type TestServer } from "./harness.ts";

const onPostgres = process.env.LATCHKEY_TEST_DB === "postgres";

describe.runIf(onPostgres)("replicas sharing one database", () => {
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

  it("a replica has applied another's committed cache events once it has caught up", async () => {
    const user = await signUpUser(a, project);
    const heard: string[] = [];
    const stop = b.instance.services.bus.onEvent((event) => {
      if (event.t === "user") heard.push(event.id);
    });
    try {
      await a.request("/users/me", { method: "PATCH", as: user.as, body: { display_name: "Heard" } });
      await b.cachesCaughtUp();
      expect(heard).toContain(user.userId);
    } finally {
      stop();
    }
  });

  it("an API key revoked on one replica is refused by the other, where it was cached", async () => {
    await patchProjectConfig(a, project, { allow_user_api_keys: true });
    await b.cachesCaughtUp();
    const user = await signUpUser(a, project);
    const created = await a.request("/user-api-keys", {
      method: "POST",
      as: user.as,
      body: { user_id: "me", description: "replicated", expires_at_millis: null },
    });
    expect(created.status, created.text).toBe(200);
    const check = (server: TestServer) =>
      server.request("/user-api-keys/check", { method: "POST", as: project.server, body: { api_key: created.body.value } });
    expect((await check(b)).status).toBe(200); // now cached on b
    const revoked = await a.request(`/user-api-keys/${created.body.id}`, { method: "PATCH", as: user.as, body: { revoked: true } });
    expect(revoked.status, revoked.text).toBe(200);
    await b.cachesCaughtUp();
    expectKnownError(await check(b), "API_KEY_REVOKED", 401);
  });

  it("a session revoked on one replica stops refreshing on the other", async () => {
    const user = await signUpUser(a, project);
    const refresh = (server: TestServer) =>
      server.request("/auth/sessions/current/refresh", {
        method: "POST",
        as: project.client,
        headers: { "x-stack-refresh-token": user.refreshToken },
      });
    expect((await refresh(b)).status).toBe(200); // now cached on b
    expect((await a.request("/auth/sessions/current", { method: "DELETE", as: user.as })).status).toBe(200);
    await b.cachesCaughtUp();
    expectKnownError(await refresh(b), "REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED", 401);
  });

  it("a password changed on one replica ends the other sessions there too, cached ones included", async () => {
    const user = await signUpUser(a, project);
    const signIn = await a.request("/auth/password/sign-in", {
      method: "POST",
      as: project.client,
      body: { email: user.email, password: PASSWORD },
    });
    expect(signIn.status, signIn.text).toBe(200);
    const refresh = (server: TestServer, refreshToken: string) =>
      server.request("/auth/sessions/current/refresh", {
        method: "POST",
        as: project.client,
        headers: { "x-stack-refresh-token": refreshToken },
      });
    expect((await refresh(b, signIn.body.refresh_token)).status).toBe(200); // now cached on b
    const changed = await a.request("/auth/password/update", {
      method: "POST",
      as: user.as,
      body: { old_password: PASSWORD, new_password: "a brand new passphrase" },
    });
    expect(changed.status, changed.text).toBe(200);
    await b.cachesCaughtUp();
    expectKnownError(await refresh(b, signIn.body.refresh_token), "REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED", 401);
    expect((await refresh(b, user.refreshToken)).status).toBe(200);
  });

  it("a key revoked on one replica is refused by the other", async () => {
    const keys = await a.request("/internal/api-keys", {
      method: "POST",
      as: project.ownerAdmin,
      body: {
        description: "replica test",
        expires_at_millis: Date.now() + 3600_000,
        has_publishable_client_key: false,
        has_secret_server_key: true,
        has_super_secret_admin_key: false,
      },
    });
    const auth = { type: "server" as const, projectId: project.id, secretServerKey: keys.body.secret_server_key };
    expect((await b.request("/users", { as: auth })).status).toBe(200); // now cached on b
    await a.request(`/internal/api-keys/${keys.body.id}`, { method: "PATCH", as: project.ownerAdmin, body: { revoked: true } });
    await b.cachesCaughtUp();
    expectKnownError(await b.request("/users", { as: auth }), "INVALID_SECRET_SERVER_KEY", 401);
  });

  it("a user updated or deleted on one replica is fresh on the other", async () => {
    const user = await signUpUser(a, project);
    expect((await b.request("/users/me", { as: user.as })).body.display_name).toBeNull();
    await a.request("/users/me", { method: "PATCH", as: user.as, body: { display_name: "Renamed" } });
    await b.cachesCaughtUp();
    expect((await b.request("/users/me", { as: user.as })).body.display_name).toBe("Renamed");
    await a.request(`/users/${user.userId}`, { method: "DELETE", as: project.server });
    await b.cachesCaughtUp();
    expectKnownError(await b.request("/users/me", { as: user.as }), "CANNOT_GET_OWN_USER_WITHOUT_USER", 400);
  });

  it("a project config change on one replica applies on the other", async () => {
    const before = await b.request("/projects/current", { as: project.client });
    expect(before.body.config.sign_up_enabled).toBe(true);
    await patchProjectConfig(a, project, { sign_up_enabled: false });
    await b.cachesCaughtUp();
    expect((await b.request("/projects/current", { as: project.client })).body.config.sign_up_enabled).toBe(false);
  });
});

it.runIf(!onPostgres)("replica tests run on PostgreSQL only (embedded PGlite has one process)", () => {
  expect(onPostgres).toBe(false);
});
