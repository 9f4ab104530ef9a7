/** Internal (project) API keys: create, list, read, describe, revoke, expire. */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { projectApiKeys } from "../src/db/schema/index.ts";
import { createProject, expectPlainError, expectSchemaError, type Project, serverWithProject, UNKNOWN_UUID } from "./fixtures.ts";
import { expectKnownError, type Auth, type TestServer } from "./harness.ts";

let server: TestServer;
let project: Project;

beforeAll(async () => ({ server, project } = await serverWithProject()));
afterAll(() => server?.close());

const ALL = { has_publishable_client_key: true, has_secret_server_key: true, has_super_secret_admin_key: true };
const NONE = { has_publishable_client_key: false, has_secret_server_key: false, has_super_secret_admin_key: false };

async function createKeys(body: Record<string, unknown> = {}, as: Auth = project.ownerAdmin) {
  const res = await server.request("/internal/api-keys", {
    method: "POST",
    as,
    body: { description: "a key", expires_at_millis: server.clock.now() + 3_600_000, ...ALL, ...body },
  });
  expect(res.status, res.text).toBe(200);
  return res.body;
}

/** Auth objects using each key of a created key set. */
function authsFor(keys: Record<string, string>): { auth: Auth; code: string }[] {
  return [
    {
      auth: { type: "client", projectId: project.id, publishableClientKey: keys.publishable_client_key },
      code: "INVALID_PUBLISHABLE_CLIENT_KEY",
    },
    { auth: { type: "server", projectId: project.id, secretServerKey: keys.secret_server_key }, code: "INVALID_SECRET_SERVER_KEY" },
    {
      auth: { type: "admin", projectId: project.id, superSecretAdminKey: keys.super_secret_admin_key },
      code: "INVALID_SUPER_SECRET_ADMIN_KEY",
    },
  ];
}

describe("POST /internal/api-keys", () => {
  it("returns the full keys once: pck_/ssk_/sak_ + 45 characters", async () => {
    const expiresAt = server.clock.now() + 3_600_000;
    const before = Date.now();
    const res = await server.request("/internal/api-keys", {
      method: "POST",
      as: project.ownerAdmin,
      body: { description: "Production keys", expires_at_millis: expiresAt, ...ALL },
    });
    expect(res.status, res.text).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual([
      "created_at_millis",
      "description",
      "expires_at_millis",
      "id",
      "publishable_client_key",
      "secret_server_key",
      "super_secret_admin_key",
    ]);
    expect(res.body.publishable_client_key).toMatch(/^pck_[0-9a-z]{45}$/);
    expect(res.body.secret_server_key).toMatch(/^ssk_[0-9a-z]{45}$/);
    expect(res.body.super_secret_admin_key).toMatch(/^sak_[0-9a-z]{45}$/);
    expect(res.body.description).toBe("Production keys");
    expect(res.body.expires_at_millis).toBe(expiresAt);
    expect(res.body.created_at_millis).toBeGreaterThanOrEqual(before - 5000);
    // Every key works.
    for (const { auth } of authsFor(res.body)) {
      const ok = await server.request("/projects/current", { as: auth });
      expect(ok.status, ok.text).toBe(200);
    }
  });

  it("only the requested kinds", async () => {
    const res = await server.request("/internal/api-keys", {
      method: "POST",
      as: project.admin,
      body: { description: "server only", expires_at_millis: server.clock.now() + 60_000, ...NONE, has_secret_server_key: true },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.secret_server_key).toMatch(/^ssk_[0-9a-z]{45}$/);
    expect(res.body).not.toHaveProperty("publishable_client_key");
    expect(res.body).not.toHaveProperty("super_secret_admin_key");
    const one = await server.request(`/internal/api-keys/${res.body.id}`, { as: project.admin });
    expect(one.body).not.toHaveProperty("publishable_client_key");
    expect(one.body.secret_server_key).toEqual({ last_four: res.body.secret_server_key.slice(-4) });
  });

  it("no has_* → 400, nothing created", async () => {
    const before = await server.request("/internal/api-keys", { as: project.admin });
    const res = await server.request("/internal/api-keys", {
      method: "POST",
      as: project.admin,
      body: { description: "nothing", expires_at_millis: server.clock.now() + 60_000, ...NONE },
    });
    expectPlainError(res, 400);
    const after = await server.request("/internal/api-keys", { as: project.admin });
    expect(after.body.items).toHaveLength(before.body.items.length);
  });

  it("validates the body; admin access only", async () => {
    expectSchemaError(
      await server.request("/internal/api-keys", { method: "POST", as: project.admin, body: { description: "x", ...ALL } }),
      "POST",
      "/internal/api-keys",
      ["body.expires_at_millis must be defined"],
    );
    expectSchemaError(
      await server.request("/internal/api-keys", {
        method: "POST",
        as: project.admin,
        body: { description: "x", expires_at_millis: server.clock.now() + 60_000, ...ALL, has_magic_key: true },
      }),
      "POST",
      "/internal/api-keys",
      ["body contains unknown properties: has_magic_key"],
    );
    for (const as of [project.server, project.client]) {
      expectKnownError(await server.request("/internal/api-keys", { as }), "INSUFFICIENT_ACCESS_TYPE", 401);
      expectKnownError(
        await server.request("/internal/api-keys", {
          method: "POST",
          as,
          body: { description: "x", expires_at_millis: server.clock.now() + 60_000, ...ALL },
        }),
        "INSUFFICIENT_ACCESS_TYPE",
        401,
      );
    }
  });
});

describe("GET /internal/api-keys(/{id})", () => {
  it("lists newest first and shows only the last four characters", async () => {
    const p = await createProject(server);
    const first = await createKeys({ description: "first" }, p.ownerAdmin);
    const second = await createKeys({ description: "second" }, p.ownerAdmin);
    const list = await server.request("/internal/api-keys", { as: p.ownerAdmin });
    expect(list.status, list.text).toBe(200);
    expect(list.body.is_paginated).toBe(false);
    const ids = list.body.items.map((k: { id: string }) => k.id);
    // createProject's own key set is the oldest.
    expect(ids).toHaveLength(3);
    expect(ids.slice(0, 2)).toEqual([second.id, first.id]);
    for (const created of [first, second]) {
      expect(list.text).not.toContain(created.publishable_client_key);
      expect(list.text).not.toContain(created.secret_server_key);
      expect(list.text).not.toContain(created.super_secret_admin_key);
    }
    const item = list.body.items[1];
    expect(item).toEqual({
      created_at_millis: first.created_at_millis,
      description: "first",
      expires_at_millis: first.expires_at_millis,
      id: first.id,
      publishable_client_key: { last_four: first.publishable_client_key.slice(-4) },
      secret_server_key: { last_four: first.secret_server_key.slice(-4) },
      super_secret_admin_key: { last_four: first.super_secret_admin_key.slice(-4) },
    });

    const one = await server.request(`/internal/api-keys/${first.id}`, { as: p.admin });
    expect(one.status, one.text).toBe(200);
    expect(one.body).toEqual(item);
  });

  it("unknown id → API_KEY_NOT_FOUND; bad id → SCHEMA_ERROR", async () => {
    expectKnownError(await server.request(`/internal/api-keys/${UNKNOWN_UUID}`, { as: project.admin }), "API_KEY_NOT_FOUND", 404);
    expectKnownError(
      await server.request(`/internal/api-keys/${UNKNOWN_UUID}`, { method: "PATCH", as: project.admin, body: { description: "x" } }),
      "API_KEY_NOT_FOUND",
      404,
    );
    expectSchemaError(await server.request("/internal/api-keys/xyz", { as: project.admin }), "GET", "/internal/api-keys/xyz", [
      "params.api_key_id must be a valid UUID",
    ]);
  });
});

describe("PATCH /internal/api-keys/{id}", () => {
  it("changes the description", async () => {
    const keys = await createKeys({ description: "old words" });
    const res = await server.request(`/internal/api-keys/${keys.id}`, {
      method: "PATCH",
      as: project.admin,
      body: { description: "new words" },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.description).toBe("new words");
    expect(res.body).not.toHaveProperty("manually_revoked_at_millis");
    expect((await server.request(`/internal/api-keys/${keys.id}`, { as: project.admin })).body.description).toBe("new words");
    // The keys still work.
    for (const { auth } of authsFor(keys)) expect((await server.request("/projects/current", { as: auth })).status).toBe(200);
  });

  it("revoked: true sets manually_revoked_at_millis and the keys are refused", async () => {
    const keys = await createKeys();
    // Used first, so each key is in the server's cache when it is revoked.
    for (const { auth } of authsFor(keys)) expect((await server.request("/projects/current", { as: auth })).status).toBe(200);
    const before = server.clock.now();
    const res = await server.request(`/internal/api-keys/${keys.id}`, { method: "PATCH", as: project.ownerAdmin, body: { revoked: true } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.manually_revoked_at_millis).toBeGreaterThanOrEqual(before - 5000);
    expect(res.body.manually_revoked_at_millis).toBeLessThanOrEqual(server.clock.now() + 5000);
    for (const { auth, code } of authsFor(keys)) {
      const refused = await server.request("/projects/current", { as: auth });
      expectKnownError(refused, code, 401);
      expect(refused.body.details).toEqual({ project_id: project.id });
    }
    // Revoked keys stay revoked.
    const restore = await server.request(`/internal/api-keys/${keys.id}`, {
      method: "PATCH",
      as: project.ownerAdmin,
      body: { revoked: false },
    });
    expectPlainError(restore, 400);
    const again = await server.request(`/internal/api-keys/${keys.id}`, { as: project.admin });
    expect(again.body.manually_revoked_at_millis).toBe(res.body.manually_revoked_at_millis);
    for (const { auth, code } of authsFor(keys)) expectKnownError(await server.request("/projects/current", { as: auth }), code, 401);
    // Revoking twice keeps the first time.
    const twice = await server.request(`/internal/api-keys/${keys.id}`, {
      method: "PATCH",
      as: project.ownerAdmin,
      body: { revoked: true },
    });
    expect(twice.body.manually_revoked_at_millis).toBe(res.body.manually_revoked_at_millis);
  });

  it("revoked: false on a live key changes nothing", async () => {
    const keys = await createKeys();
    const res = await server.request(`/internal/api-keys/${keys.id}`, { method: "PATCH", as: project.admin, body: { revoked: false } });
    expect(res.status, res.text).toBe(200);
    expect(res.body).not.toHaveProperty("manually_revoked_at_millis");
    for (const { auth } of authsFor(keys)) expect((await server.request("/projects/current", { as: auth })).status).toBe(200);
  });

  it("a key revoking its own set locks itself out", async () => {
    const keys = await createKeys();
    const self: Auth = { type: "admin", projectId: project.id, superSecretAdminKey: keys.super_secret_admin_key };
    const res = await server.request(`/internal/api-keys/${keys.id}`, { method: "PATCH", as: self, body: { revoked: true } });
    expect(res.status, res.text).toBe(200);
    expectKnownError(await server.request("/internal/api-keys", { as: self }), "INVALID_SUPER_SECRET_ADMIN_KEY", 401);
  });

  it("refuses unknown fields", async () => {
    const keys = await createKeys();
    expectSchemaError(
      await server.request(`/internal/api-keys/${keys.id}`, { method: "PATCH", as: project.admin, body: { expires_at_millis: 1 } }),
      "PATCH",
      `/internal/api-keys/${keys.id}`,
      ["body contains unknown properties: expires_at_millis"],
    );
  });
});

describe("expiry and storage", () => {
  it("an expired key is refused", async () => {
    const keys = await createKeys({ expires_at_millis: server.clock.now() + 60_000 });
    for (const { auth } of authsFor(keys)) expect((await server.request("/projects/current", { as: auth })).status).toBe(200);
    server.clock.advance(59_000);
    for (const { auth } of authsFor(keys)) expect((await server.request("/projects/current", { as: auth })).status).toBe(200);
    server.clock.advance(Math.max(0, keys.expires_at_millis - server.clock.now()) + 1);
    for (const { auth, code } of authsFor(keys)) expectKnownError(await server.request("/projects/current", { as: auth }), code, 401);
    // Still listed, with its expiry.
    const one = await server.request(`/internal/api-keys/${keys.id}`, { as: project.admin });
    expect(one.body.expires_at_millis).toBe(keys.expires_at_millis);
  });

  it("a key may be created already expired, as the reference allows: listed, and refused at once", async () => {
    const expiresAt = server.clock.now() - 1000;
    const keys = await createKeys({ description: "born expired", expires_at_millis: expiresAt });
    expect(keys.expires_at_millis).toBe(expiresAt);
    for (const { auth, code } of authsFor(keys)) expectKnownError(await server.request("/projects/current", { as: auth }), code, 401);
    const one = await server.request(`/internal/api-keys/${keys.id}`, { as: project.admin });
    expect(one.status, one.text).toBe(200);
    expect(one.body.expires_at_millis).toBe(expiresAt);
  });

  it("keys are stored hashed: no full key string in the table", async () => {
    const keys = await createKeys({ description: "storage check" });
    const rows = await server.instance.services.db.select().from(projectApiKeys).where(eq(projectApiKeys.projectId, project.id));
    const dump = JSON.stringify(rows);
    expect(rows.length).toBeGreaterThan(0);
    for (const kind of ["publishable_client_key", "secret_server_key", "super_secret_admin_key"]) {
      const full = keys[kind] as string;
      expect(dump).not.toContain(full);
      expect(dump).not.toContain(full.slice(4)); // nor the random part alone
    }
    const row = rows.find((r) => r.id === keys.id)!;
    expect(row.secretServerKeyLastFour).toBe(keys.secret_server_key.slice(-4));
    expect(row.secretServerKeyHash).toMatch(/^[0-9a-f]{64}$/);
    // Nor in the raw table, whatever the column.
    const raw = await server.instance.services.database.rawTransaction((run) => run("select * from project_api_keys"));
    expect(JSON.stringify(raw)).not.toContain(keys.super_secret_admin_key.slice(4));
  });
});
