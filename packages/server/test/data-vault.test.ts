/**
 * The data vault's endpoints (POST /data-vault/stores/{store_id}/set and
 * /get): server and admin access, stores from the project's config, the
 * catalogue's errors in WIRE-next §3's order, upsert; and what the database
 * holds: each value sealed under a data key of its own, wrapped under the
 * key-encryption key named on the row, never the value sent.
 */
import { randomBytes } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { localKeyId } from "../src/capabilities/data-vault/domain/local-sealer.ts";
import { dataVaultValues } from "../src/capabilities/data-vault/schema.ts";
import { createProject, type Project } from "./fixtures.ts";
import { createTestServer, expectKnownError, type Auth, type TestServer } from "./harness.ts";

let server: TestServer;
let project: Project;
let other: Project;

/** What the SDK sends as a hashed key: 44 base64 characters. */
const hashedKey = () => randomBytes(32).toString("base64");

async function addStores(p: Project, ...ids: string[]) {
  const override = Object.fromEntries(ids.map((id) => [`dataVault.stores.${id}`, { displayName: `Store ${id}` }]));
  const res = await server.request("/internal/config/override/environment", {
    method: "PATCH",
    as: p.admin,
    body: { config_override_string: JSON.stringify(override) },
  });
  expect(res.status, res.text).toBe(200);
}

const set = (as: Auth, store: string, body: unknown) =>
  server.request(`/data-vault/stores/${encodeURIComponent(store)}/set`, { method: "POST", as, body });
const get = (as: Auth, store: string, body: unknown) =>
  server.request(`/data-vault/stores/${encodeURIComponent(store)}/get`, { method: "POST", as, body });

beforeAll(async () => {
  server = await createTestServer();
  [project, other] = await Promise.all([createProject(server), createProject(server)]);
  await addStores(project, "tokens", "notes");
  await addStores(other, "tokens");
});
afterAll(() => server?.close());

describe("set and get", () => {
  it("store a value by hashed key and answer it as stored, for server and admin access", async () => {
    const key = hashedKey();
    const res = await set(project.server, "tokens", { hashed_key: key, encrypted_value: "AQA-first" });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ success: true });
    const read = await get(project.admin, "tokens", { hashed_key: key });
    expect(read.status, read.text).toBe(200);
    expect(read.body).toEqual({ encrypted_value: "AQA-first" });
  });

  it("replace a key's value on a second set (upsert), and keep an empty value", async () => {
    const key = hashedKey();
    expect((await set(project.admin, "tokens", { hashed_key: key, encrypted_value: "old" })).status).toBe(200);
    expect((await set(project.server, "tokens", { hashed_key: key, encrypted_value: "new" })).status).toBe(200);
    expect((await get(project.server, "tokens", { hashed_key: key })).body).toEqual({ encrypted_value: "new" });
    expect((await set(project.server, "tokens", { hashed_key: key, encrypted_value: "" })).status).toBe(200);
    expect((await get(project.server, "tokens", { hashed_key: key })).body).toEqual({ encrypted_value: "" });
  });

  it("keep each store, and each project, apart", async () => {
    const key = hashedKey();
    await set(project.server, "tokens", { hashed_key: key, encrypted_value: "in tokens" });
    await set(project.server, "notes", { hashed_key: key, encrypted_value: "in notes" });
    expect((await get(project.server, "tokens", { hashed_key: key })).body.encrypted_value).toBe("in tokens");
    expect((await get(project.server, "notes", { hashed_key: key })).body.encrypted_value).toBe("in notes");
    const elsewhere = await get(other.server, "tokens", { hashed_key: key });
    expectKnownError(elsewhere, "DATA_VAULT_STORE_HASHED_KEY_DOES_NOT_EXIST", 400);
  });

  it("refuse client access", async () => {
    const key = hashedKey();
    expectKnownError(await set(project.client, "tokens", { hashed_key: key, encrypted_value: "x" }), "INSUFFICIENT_ACCESS_TYPE", 401);
    expectKnownError(await get(project.client, "tokens", { hashed_key: key }), "INSUFFICIENT_ACCESS_TYPE", 401);
  });
});

describe("refusals, in WIRE-next §3's order", () => {
  it("an empty hashed key is a schema error, even for a store that does not exist", async () => {
    for (const store of ["tokens", "missing"]) {
      for (const res of [
        await set(project.server, store, { hashed_key: "", encrypted_value: "x" }),
        await get(project.server, store, { hashed_key: "" }),
      ]) {
        expectKnownError(res, "SCHEMA_ERROR", 400);
        expect(res.body.error).toContain("body.hashed_key must not be empty");
      }
    }
  });

  it("a body without its fields, or with others, is a schema error", async () => {
    expectKnownError(await set(project.server, "tokens", { hashed_key: hashedKey() }), "SCHEMA_ERROR", 400);
    expectKnownError(await set(project.server, "tokens", { encrypted_value: "x" }), "SCHEMA_ERROR", 400);
    expectKnownError(await get(project.server, "tokens", {}), "SCHEMA_ERROR", 400);
    expectKnownError(await get(project.server, "tokens", { hashed_key: hashedKey(), extra: 1 }), "SCHEMA_ERROR", 400);
  });

  it("a store the config does not name: DATA_VAULT_STORE_DOES_NOT_EXIST with its id as given", async () => {
    for (const store of ["missing", "  ", "constructor", "Tokens"]) {
      for (const res of [
        await set(project.server, store, { hashed_key: hashedKey(), encrypted_value: "x" }),
        await get(project.server, store, { hashed_key: hashedKey() }),
      ]) {
        expectKnownError(res, "DATA_VAULT_STORE_DOES_NOT_EXIST", 400);
        expect(res.body.details).toEqual({ store_id: store });
      }
    }
    // Another project's store is not this one's.
    await addStores(other, "others-only");
    expectKnownError(await get(project.server, "others-only", { hashed_key: hashedKey() }), "DATA_VAULT_STORE_DOES_NOT_EXIST", 400);
  });

  it("a hashed key the store has no value for: DATA_VAULT_STORE_HASHED_KEY_DOES_NOT_EXIST (400) with both ids", async () => {
    const key = hashedKey();
    const res = await get(project.admin, "tokens", { hashed_key: key });
    expectKnownError(res, "DATA_VAULT_STORE_HASHED_KEY_DOES_NOT_EXIST", 400);
    expect(res.body.details).toEqual({ store_id: "tokens", hashed_key: key });
  });

  it("a store removed from the config refuses, and finds its values again when added back", async () => {
    await addStores(project, "temporary");
    const key = hashedKey();
    await set(project.server, "temporary", { hashed_key: key, encrypted_value: "kept" });
    const removed = await server.request("/internal/config/override/environment", {
      method: "PATCH",
      as: project.admin,
      body: { config_override_string: JSON.stringify({ "dataVault.stores.temporary": null }) },
    });
    expect(removed.status, removed.text).toBe(200);
    expectKnownError(await get(project.server, "temporary", { hashed_key: key }), "DATA_VAULT_STORE_DOES_NOT_EXIST", 400);
    await addStores(project, "temporary");
    expect((await get(project.server, "temporary", { hashed_key: key })).body).toEqual({ encrypted_value: "kept" });
  });
});

describe("at rest", () => {
  const row = async (store: string, key: string) => {
    const [found] = await server.instance.services.db
      .select()
      .from(dataVaultValues)
      .where(
        and(
          eq(dataVaultValues.projectId, project.id),
          eq(dataVaultValues.branchId, "main"),
          eq(dataVaultValues.storeId, store),
          eq(dataVaultValues.hashedKey, key),
        ),
      );
    return found!;
  };

  it("holds the value sealed, under a fresh data key per write, named by the key-encryption key's id", async () => {
    const key = hashedKey();
    const value = "a-value-the-database-must-not-show";
    await set(project.server, "tokens", { hashed_key: key, encrypted_value: value });
    const first = await row("tokens", key);
    expect(first.keyId).toBe(localKeyId(server.config.serverSecret));
    expect(JSON.stringify(first)).not.toContain(value);
    expect(Buffer.from(first.sealedValue, "base64url").toString("utf8")).not.toContain(value);
    await set(project.server, "tokens", { hashed_key: key, encrypted_value: value });
    const second = await row("tokens", key);
    expect(second.wrappedDataKey).not.toBe(first.wrappedDataKey);
    expect(second.sealedValue).not.toBe(first.sealedValue);
  });

  it("does not open a sealed value moved to another row", async () => {
    const [a, b] = [hashedKey(), hashedKey()];
    await set(project.server, "tokens", { hashed_key: a, encrypted_value: "value of a" });
    await set(project.server, "tokens", { hashed_key: b, encrypted_value: "value of b" });
    const rowA = await row("tokens", a);
    await server.instance.services.db
      .update(dataVaultValues)
      .set({ keyId: rowA.keyId, wrappedDataKey: rowA.wrappedDataKey, sealedValue: rowA.sealedValue })
      .where(and(eq(dataVaultValues.projectId, project.id), eq(dataVaultValues.storeId, "tokens"), eq(dataVaultValues.hashedKey, b)));
    const res = await get(project.server, "tokens", { hashed_key: b });
    expect(res.status).toBe(500);
    expect(res.text).not.toContain("value of a");
  });
});
