/**
 * `getDataVaultStore(id)` against a real server: values encrypted and keys
 * hashed in the SDK in WIRE-next §3's format, so the server holds neither
 * (nothing sent carries the key, the value or the secret); a wrong secret
 * reads null; a value that does not decrypt throws SPEC §8's message. The
 * official `@stackframe/js` SDK on the other side of the same server reads
 * what ours wrote, and ours what it wrote.
 */
import { StackServerApp as OfficialServerApp } from "@stackframe/js";
import { DATA_VAULT_DECRYPTION_FAILED_MESSAGE, DATA_VAULT_SECRET_NOT_STRING_MESSAGE } from "@latchkey/shared/constants";
import { KnownErrors } from "@latchkey/shared/known-errors/index";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { StackServerApp } from "../../src/index.ts";
import { dataVaultKeyMaterial, encryptDataVaultValue, hashDataVaultKey } from "../../src/apps/data-vault-crypto.ts";
import { createSdkProject, type SdkProject } from "./fixtures.ts";
import { startServer, type TestServer } from "./support.ts";

const SECRET = "the app's own vault secret";

let server: TestServer;
let baseUrl: string;
let project: SdkProject;

beforeAll(async () => {
  ({ server, baseUrl } = await startServer());
  project = await createSdkProject(baseUrl);
  await project.project.updateConfig({ "dataVault.stores.tokens": { displayName: "Tokens" } });
});
afterAll(() => server?.close());

/** Our server app, with every request body it sends kept. */
function ours() {
  const bodies: string[] = [];
  const app = new StackServerApp({
    baseUrl,
    projectId: project.id,
    publishableClientKey: project.publishableClientKey,
    secretServerKey: project.secretServerKey,
    fetch: (input, init) => {
      if (typeof init?.body === "string") bodies.push(init.body);
      return fetch(input, init);
    },
  });
  return { app, bodies };
}

function official() {
  return new OfficialServerApp({
    baseUrl,
    projectId: project.id,
    publishableClientKey: project.publishableClientKey,
    secretServerKey: project.secretServerKey,
    tokenStore: "memory",
  });
}

const base64Bytes = (text: string) => Buffer.from(text, "base64");

describe("our SDK", () => {
  it("stores and reads back a value; setting again replaces it; the empty string is a value", async () => {
    const store = await ours().app.getDataVaultStore("tokens");
    expect(store.id).toBe("tokens");
    await store.setValue("github:user-1", "ghp_token-ünïcödé-✓", { secret: SECRET });
    expect(await store.getValue("github:user-1", { secret: SECRET })).toBe("ghp_token-ünïcödé-✓");
    await store.setValue("github:user-1", "", { secret: SECRET });
    expect(await store.getValue("github:user-1", { secret: SECRET })).toBe("");
  });

  it("sends the server only a hashed key and an encrypted value, in WIRE-next §3's layout", async () => {
    const { app, bodies } = ours();
    const store = await app.getDataVaultStore("tokens");
    const value = "a value the server must never see";
    await store.setValue("customer-42", value, { secret: SECRET });
    expect(await store.getValue("customer-42", { secret: SECRET })).toBe(value);
    expect(bodies).toHaveLength(2);
    for (const body of bodies) {
      for (const plain of ["customer-42", value, SECRET]) expect(body).not.toContain(plain);
    }
    const sent = JSON.parse(bodies[0]!) as { hashed_key: string; encrypted_value: string };
    expect(sent.hashed_key).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    expect(JSON.parse(bodies[1]!)).toEqual({ hashed_key: sent.hashed_key });
    const bytes = base64Bytes(sent.encrypted_value);
    expect([bytes[0], bytes[1]]).toEqual([1, 0]);
    // version 2 + salt 16 + IV 12 + ciphertext (as long as the UTF-8 value) + tag 16
    expect(bytes.length).toBe(2 + 16 + 12 + Buffer.byteLength(value) + 16);
    // A fresh salt and IV each time: the same value encrypts differently.
    await store.setValue("customer-42", value, { secret: SECRET });
    expect(JSON.parse(bodies[2]!).hashed_key).toBe(sent.hashed_key);
    expect(JSON.parse(bodies[2]!).encrypted_value).not.toBe(sent.encrypted_value);
  });

  it("reads null for a key never set, and for a value written with another secret", async () => {
    const store = await ours().app.getDataVaultStore("tokens");
    expect(await store.getValue("never-set", { secret: SECRET })).toBeNull();
    await store.setValue("secret-bound", "only with the right secret", { secret: SECRET });
    expect(await store.getValue("secret-bound", { secret: "another secret" })).toBeNull();
  });

  it("throws SPEC §8's message for a value that does not decrypt under the key's secret", async () => {
    // Found under SECRET's hashed key, but encrypted with another secret: GCM refuses it.
    const hashedKey = await hashDataVaultKey(await dataVaultKeyMaterial("mixed-up", SECRET));
    const encrypted = await encryptDataVaultValue(await dataVaultKeyMaterial("mixed-up", "not the secret"), "x");
    const res = await fetch(`${baseUrl}/api/v1/data-vault/stores/tokens/set`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-stack-access-type": "server",
        "x-stack-project-id": project.id,
        "x-stack-secret-server-key": project.secretServerKey,
      },
      body: JSON.stringify({ hashed_key: hashedKey, encrypted_value: encrypted }),
    });
    expect(res.status).toBe(200);
    const store = await ours().app.getDataVaultStore("tokens");
    await expect(store.getValue("mixed-up", { secret: SECRET })).rejects.toThrow(DATA_VAULT_DECRYPTION_FAILED_MESSAGE);
  });

  it("throws DATA_VAULT_STORE_DOES_NOT_EXIST for a store the config does not name", async () => {
    const store = await ours().app.getDataVaultStore("no-such-store");
    await expect(store.setValue("k", "v", { secret: SECRET })).rejects.toBeInstanceOf(KnownErrors.DataVaultStoreDoesNotExist);
    await expect(store.getValue("k", { secret: SECRET })).rejects.toBeInstanceOf(KnownErrors.DataVaultStoreDoesNotExist);
  });

  it("refuses a secret that is not a string (SPEC §5), before asking the server", async () => {
    const { app, bodies } = ours();
    const store = await app.getDataVaultStore("tokens");
    const secret = 42 as unknown as string;
    await expect(store.setValue("k", "v", { secret })).rejects.toThrow(DATA_VAULT_SECRET_NOT_STRING_MESSAGE);
    await expect(store.getValue("k", { secret })).rejects.toThrow(DATA_VAULT_SECRET_NOT_STRING_MESSAGE);
    expect(bodies).toEqual([]);
  });
});

describe("with the official @stackframe/js SDK", () => {
  it("reads what ours wrote", async () => {
    const store = await ours().app.getDataVaultStore("tokens");
    await store.setValue("written-by-latchkey", "from @latchkey/js ✓", { secret: SECRET });
    const theirs = await official().getDataVaultStore("tokens");
    expect(await theirs.getValue("written-by-latchkey", { secret: SECRET })).toBe("from @latchkey/js ✓");
    expect(await theirs.getValue("written-by-latchkey", { secret: "another secret" })).toBeNull();
  });

  it("writes what ours reads", async () => {
    const theirs = await official().getDataVaultStore("tokens");
    await theirs.setValue("written-by-official", "from @stackframe/js ✓", { secret: SECRET });
    const store = await ours().app.getDataVaultStore("tokens");
    expect(await store.getValue("written-by-official", { secret: SECRET })).toBe("from @stackframe/js ✓");
    expect(await store.getValue("written-by-official", { secret: "another secret" })).toBeNull();
  });

  it("gets the store's known error, with the details it builds it from, for a store the config does not name", async () => {
    const theirs = await official().getDataVaultStore("no-such-store");
    await expect(theirs.setValue("k", "v", { secret: SECRET })).rejects.toMatchObject({ errorCode: "DATA_VAULT_STORE_DOES_NOT_EXIST" });
  });
});
