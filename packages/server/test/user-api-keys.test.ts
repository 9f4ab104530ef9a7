/**
 * User API keys: the setting that turns them on, creating (the full key once,
 * in its layout; a digest stored), listing, reading, describing, revoking,
 * and who may do each.
 */
import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { userTeamApiKeys } from "../src/db/schema/index.ts";
import { crc32 } from "../src/capabilities/user-team-api-keys/domain/key-string.ts";
import { expectKeyGoesWithOwner, expectKeysOff, keyCreation, projectWithApiKeys, serverWithApiKeys } from "./api-key-fixtures.ts";
import { writeOverride } from "./config-fixtures.ts";
import {
  createProject,
  expectPlainError,
  expectSchemaError,
  patchProjectConfig,
  signUpUser,
  UNKNOWN_UUID,
  type EndUser,
  type Project,
} from "./fixtures.ts";
import { expectKnownError, type Auth, type TestServer } from "./harness.ts";

let server: TestServer;
let project: Project;
let alice: EndUser;
let bob: EndUser;

beforeAll(async () => {
  ({ server, project } = await serverWithApiKeys("user"));
  [alice, bob] = await Promise.all([signUpUser(server, project), signUpUser(server, project)]);
});
afterAll(() => server?.close());

const { create, created } = keyCreation(
  () => server,
  "user",
  () => ({ user_id: "me", description: "CLI", expires_at_millis: null }),
);
const list = (as: Auth, query: Record<string, string> = {}) => server.request("/user-api-keys", { as, query });
const read = (as: Auth, id: string, query: Record<string, string> = {}) => server.request(`/user-api-keys/${id}`, { as, query });
const update = (as: Auth, id: string, body: Record<string, unknown>, query: Record<string, string> = {}) =>
  server.request(`/user-api-keys/${id}`, { method: "PATCH", as, body, query });

describe("the key string", () => {
  it("has the layout: sk_ + 45-character secret + key id + user + flag 1 + marker + CRC-32", async () => {
    const key = await created(alice.as);
    const value: string = key.value;
    expect(value).toHaveLength(102);
    expect(value).toMatch(/^sk_[0-9a-hjkmnp-tv-z]{45}[0-9a-f]{32}user1574ck4u7h[0-9a-f]{8}$/);
    expect(value.slice(48, 80)).toBe(key.id.replaceAll("-", ""));
    const crc = crc32(Buffer.from(value.slice(0, -8), "utf8"))
      .toString(16)
      .padStart(8, "0");
    expect(value.slice(-8)).toBe(crc);
  });

  it("a public key starts pk_ with flag 3", async () => {
    const key = await created(alice.as, { is_public: true });
    expect(key.is_public).toBe(true);
    expect(key.value).toMatch(/^pk_[0-9a-z]{77}user3574ck4u7h[0-9a-f]{8}$/);
  });

  it("is stored as its SHA-256 digest, never in plain text", async () => {
    const key = await created(alice.as);
    const [row] = await server.instance.services.db.select().from(userTeamApiKeys).where(eq(userTeamApiKeys.id, key.id));
    expect(row!.valueDigest).toBe(createHash("sha256").update(key.value).digest("hex"));
    expect(Object.values(row!).map(String)).not.toContain(key.value);
    expect(row!.lastFour).toBe(key.value.slice(-4));
  });
});

describe("POST /user-api-keys", () => {
  it("answers the key object with the full value, once", async () => {
    const expires = server.clock.now() + 3_600_000;
    const before = server.clock.now();
    const key = await created(alice.as, { description: "deploy bot", expires_at_millis: expires });
    expect(Object.keys(key).sort()).toEqual([
      "created_at_millis",
      "description",
      "expires_at_millis",
      "id",
      "is_public",
      "type",
      "user_id",
      "value",
    ]);
    expect(key).toMatchObject({
      description: "deploy bot",
      expires_at_millis: expires,
      is_public: false,
      type: "user",
      user_id: alice.userId,
    });
    expect(key.created_at_millis).toBeGreaterThanOrEqual(before);
    expect(key.created_at_millis).toBeLessThanOrEqual(server.clock.now());
    const again = await read(alice.as, key.id);
    expect(again.body.value).toEqual({ last_four: key.value.slice(-4) });
  });

  it("null or 0 never expire (no expires_at_millis); a past expiry is accepted", async () => {
    expect((await created(alice.as, { expires_at_millis: null })).expires_at_millis).toBeUndefined();
    expect((await created(alice.as, { expires_at_millis: 0 })).expires_at_millis).toBeUndefined();
    const past = server.clock.now() - 1000;
    expect((await created(alice.as, { expires_at_millis: past })).expires_at_millis).toBe(past);
  });

  it("requires description and expires_at_millis", async () => {
    const res = await create(alice.as, { user_id: "me" });
    expectSchemaError(res, "POST", "/user-api-keys", ["body.description must be defined", "body.expires_at_millis must be defined"]);
  });

  it("a client acts for its own user only", async () => {
    expectKnownError(
      await create({ ...project.client }, { user_id: "me", description: "x", expires_at_millis: null }),
      "USER_AUTHENTICATION_REQUIRED",
      401,
    );
    const res = await create(alice.as, { user_id: bob.userId, description: "x", expires_at_millis: null });
    expectPlainError(res, 403);
    expect(res.text).toBe("Client can only manage their own api keys");
    expect((await create(alice.as, { user_id: alice.userId, description: "x", expires_at_millis: null })).status).toBe(200);
  });

  it("a server creates for any user of the project, and no other", async () => {
    const res = await create(project.server, { user_id: bob.userId, description: "x", expires_at_millis: null });
    expect(res.status, res.text).toBe(200);
    expect(res.body.user_id).toBe(bob.userId);
    expectKnownError(
      await create(project.server, { user_id: UNKNOWN_UUID, description: "x", expires_at_millis: null }),
      "USER_NOT_FOUND",
      404,
    );
    const other = await projectWithApiKeys(server, "user");
    expectKnownError(await create(other.server, { user_id: bob.userId, description: "x", expires_at_millis: null }), "USER_NOT_FOUND", 404);
  });
});

describe("the setting", () => {
  it("off: every endpoint answers 400 in plain text, after the schema checks", async () => {
    const off = await createProject(server);
    const user = await signUpUser(server, off);
    const calls = [
      create(user.as, { user_id: "me", description: "x", expires_at_millis: null }),
      list(user.as, { user_id: "me" }),
      read(user.as, UNKNOWN_UUID),
      update(user.as, UNKNOWN_UUID, { description: "y" }),
      server.request("/user-api-keys/check", { method: "POST", as: off.server, body: { api_key: "sk_nothing" } }),
    ];
    for (const res of await Promise.all(calls)) expectKeysOff(res, "user");
    // The request's validation comes first.
    expectSchemaError(await create(user.as, { user_id: "me" }), "POST", "/user-api-keys", [
      "body.description must be defined",
      "body.expires_at_millis must be defined",
    ]);
  });

  it("is apiKeys.enabled.user, which allow_user_api_keys writes", async () => {
    const other = await createProject(server);
    const user = await signUpUser(server, other);
    expect((await list(user.as, { user_id: "me" })).status).toBe(400);
    await writeOverride(server, other.id, "environment", { "apiKeys.enabled.user": true });
    await server.cachesCaughtUp();
    expect((await list(user.as, { user_id: "me" })).status).toBe(200);
    await patchProjectConfig(server, other, { allow_user_api_keys: false });
    expect((await list(user.as, { user_id: "me" })).status).toBe(400);
  });
});

describe("GET /user-api-keys", () => {
  it("lists the user's keys newest first, revoked and expired included", async () => {
    const user = await signUpUser(server, project);
    const first = await created(user.as, { description: "first" });
    server.clock.advance(1000);
    const second = await created(user.as, { description: "second", expires_at_millis: server.clock.now() - 1 });
    server.clock.advance(1000);
    const third = await created(user.as, { description: "third" });
    await update(user.as, first.id, { revoked: true });
    const res = await list(user.as, { user_id: "me" });
    expect(res.status, res.text).toBe(200);
    expect(res.body.is_paginated).toBe(false);
    expect(res.body.items.map((k: { id: string }) => k.id)).toEqual([third.id, second.id, first.id]);
    expect(res.body.items[2].manually_revoked_at_millis).toBeTypeOf("number");
    for (const item of res.body.items) expect(item.value).toEqual({ last_four: expect.any(String) });
    const byServer = await list(project.server, { user_id: user.userId });
    expect(byServer.body.items).toHaveLength(3);
  });

  it("without user_id: SCHEMA_ERROR with the bare message", async () => {
    const res = await list(alice.as);
    expectKnownError(res, "SCHEMA_ERROR", 400);
    expect(res.body).toEqual({
      code: "SCHEMA_ERROR",
      details: { message: "user_id is required for user API keys" },
      error: "user_id is required for user API keys",
    });
  });

  it("a client lists only its own keys", async () => {
    expectPlainError(await list(alice.as, { user_id: bob.userId }), 403);
    expectKnownError(await list(project.client, { user_id: "me" }), "USER_AUTHENTICATION_REQUIRED", 401);
  });
});

describe("GET and PATCH /user-api-keys/{id}", () => {
  it("reads a key; another project's or an unknown id is API_KEY_NOT_FOUND", async () => {
    const key = await created(alice.as);
    const res = await read(project.server, key.id);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ id: key.id, user_id: alice.userId, value: { last_four: key.value.slice(-4) } });
    expectKnownError(await read(alice.as, UNKNOWN_UUID), "API_KEY_NOT_FOUND", 404);
    const other = await projectWithApiKeys(server, "user");
    expectKnownError(await read(other.server, key.id), "API_KEY_NOT_FOUND", 404);
    // Named for another user than its own.
    expectKnownError(await read(project.server, key.id, { user_id: bob.userId }), "API_KEY_NOT_FOUND", 404);
  });

  it("a client reaches only its own user's keys (the key is looked up first)", async () => {
    const key = await created(bob.as);
    const res = await read(alice.as, key.id);
    expectPlainError(res, 403);
    expect(res.text).toBe("Client can only manage their own api keys");
    expectPlainError(await update(alice.as, key.id, { revoked: true }), 403);
    expectKnownError(await read(alice.as, UNKNOWN_UUID), "API_KEY_NOT_FOUND", 404);
    expectKnownError(await read(project.client, key.id), "USER_AUTHENTICATION_REQUIRED", 401);
  });

  it("changes the description; revoking is one way and keeps the first time", async () => {
    const key = await created(alice.as);
    const described = await update(alice.as, key.id, { description: "renamed" });
    expect(described.status, described.text).toBe(200);
    expect(described.body.description).toBe("renamed");
    expect(described.body.manually_revoked_at_millis).toBeUndefined();
    const before = server.clock.now();
    const revoked = await update(alice.as, key.id, { revoked: true });
    expect(revoked.body.manually_revoked_at_millis).toBeGreaterThanOrEqual(before);
    expect(revoked.body.manually_revoked_at_millis).toBeLessThanOrEqual(server.clock.now());
    const revokedAt = revoked.body.manually_revoked_at_millis;
    server.clock.advance(5000);
    const again = await update(project.server, key.id, { revoked: true, description: "still" });
    expect(again.body.manually_revoked_at_millis).toBe(revokedAt);
    expect(again.body.description).toBe("still");
  });

  it("refuses un-revoking and changing the expiry", async () => {
    const key = await created(alice.as);
    expectSchemaError(await update(alice.as, key.id, { revoked: false }), "PATCH", `/user-api-keys/${key.id}`, [
      "body.revoked must be one of the following values: true",
    ]);
    expectSchemaError(await update(alice.as, key.id, { expires_at_millis: 5 }), "PATCH", `/user-api-keys/${key.id}`, [
      "body contains unknown properties: expires_at_millis",
    ]);
  });
});

describe("a deleted user", () => {
  it("takes their keys along", async () => {
    const user = await signUpUser(server, project);
    const key = await created(user.as);
    await expectKeyGoesWithOwner(server, project, "user", key, `/users/${user.userId}`);
  });
});
