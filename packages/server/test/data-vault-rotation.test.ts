/**
 * Rotating the data vault's key-encryption key: the operator lists the new
 * secret first and the old one after it (LATCHKEY_DATA_VAULT_SECRETS), so
 * every value stays readable; `latchkey vault-rotate` re-wraps each data key
 * under the new one, leaving the sealed values as they are; afterwards the
 * old secret is no longer needed (and no longer enough). Restarting the
 * servers with other secrets is done here by giving the running server
 * another sealer, as a restart would.
 */
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { localKeyId, localSealer } from "../src/capabilities/data-vault/domain/local-sealer.ts";
import { rotateDataVaultKeys } from "../src/capabilities/data-vault/domain/rotate.ts";
import { UnknownKeyEncryptionKeyError } from "../src/capabilities/data-vault/domain/sealer.ts";
import { dataVaultValues } from "../src/capabilities/data-vault/schema.ts";
import { configFromEnv } from "../src/config.ts";
import { StartupError } from "../src/process/startup-error.ts";
import { createProject, type Project } from "./fixtures.ts";
import { createTestServer, type TestServer } from "./harness.ts";

const secret = () => randomBytes(32).toString("hex");
const [OLD, NEW] = [secret(), secret()];

let server: TestServer;
let projects: Project[];

beforeAll(async () => {
  server = await createTestServer({ dataVaultSecrets: [OLD] });
  projects = await Promise.all([createProject(server), createProject(server)]);
  for (const p of projects) {
    const res = await server.request("/internal/config/override/environment", {
      method: "PATCH",
      as: p.admin,
      body: { config_override_string: JSON.stringify({ "dataVault.stores.tokens": {} }) },
    });
    expect(res.status, res.text).toBe(200);
  }
});
afterAll(() => server?.close());

/** The servers' secrets, as after a restart with LATCHKEY_DATA_VAULT_SECRETS set to them. */
function restartWith(...secrets: string[]) {
  server.instance.services.dataVaultSealer = localSealer(secrets);
}

const set = (p: Project, key: string, value: string) =>
  server.request("/data-vault/stores/tokens/set", { method: "POST", as: p.server, body: { hashed_key: key, encrypted_value: value } });
const get = (p: Project, key: string) =>
  server.request("/data-vault/stores/tokens/get", { method: "POST", as: p.server, body: { hashed_key: key } });

async function rows() {
  return server.instance.services.db
    .select({
      key: dataVaultValues.hashedKey,
      keyId: dataVaultValues.keyId,
      wrapped: dataVaultValues.wrappedDataKey,
      sealed: dataVaultValues.sealedValue,
    })
    .from(dataVaultValues)
    .orderBy(asc(dataVaultValues.hashedKey));
}

async function expectValues(values: Record<string, [Project, string]>) {
  for (const [key, [p, value]] of Object.entries(values)) {
    const res = await get(p, key);
    expect(res.status, res.text).toBe(200);
    expect(res.body.encrypted_value).toBe(value);
  }
}

describe("LATCHKEY_DATA_VAULT_SECRETS", () => {
  it("lists the secrets newest first; unset, the server secret is the one", () => {
    expect(configFromEnv({}).dataVaultSecrets).toBeNull();
    expect(configFromEnv({ LATCHKEY_DATA_VAULT_SECRETS: " new-one , old-one " }).dataVaultSecrets).toEqual(["new-one", "old-one"]);
    expect(() => configFromEnv({ LATCHKEY_DATA_VAULT_SECRETS: "a,,b" })).toThrow(/empty entry/);
    expect(() => configFromEnv({ LATCHKEY_DATA_VAULT_SECRETS: "a,a" })).toThrow(/twice/);
  });

  it("wants each secret at least 32 characters long in production", () => {
    const production = { NODE_ENV: "production", STACK_SERVER_SECRET: OLD, LATCHKEY_API_URL: "https://auth.example.com" };
    expect(configFromEnv({ ...production, LATCHKEY_DATA_VAULT_SECRETS: `${NEW},${OLD}` }).dataVaultSecrets).toEqual([NEW, OLD]);
    expect(() => configFromEnv({ ...production, LATCHKEY_DATA_VAULT_SECRETS: `${NEW},short` })).toThrow(StartupError);
    expect(() => configFromEnv({ ...production, LATCHKEY_DATA_VAULT_SECRETS: `${NEW},short` })).toThrow(/entry 2/);
  });
});

describe("a rotation", () => {
  const [a, b, c] = [randomBytes(32).toString("base64"), randomBytes(32).toString("base64"), randomBytes(32).toString("base64")];

  it("keeps old and new values readable before, during and after it, then needs only the new secret", async () => {
    const [first, second] = projects as [Project, Project];
    await set(first, a, "value a");
    await set(second, b, "value b");
    expect(new Set((await rows()).map((r) => r.keyId))).toEqual(new Set([localKeyId(OLD)]));

    // The new secret first, the old one still listed: old values read, new ones are wrapped under the new key.
    restartWith(NEW, OLD);
    await set(first, c, "value c");
    const before = await rows();
    expect(before.find((r) => r.key === c)?.keyId).toBe(localKeyId(NEW));
    await expectValues({ [a]: [first, "value a"], [b]: [second, "value b"], [c]: [first, "value c"] });

    const report = await rotateDataVaultKeys(server.instance.services.db, localSealer([NEW, OLD]));
    expect(report).toEqual({ rewrapped: 2 });
    const after = await rows();
    expect(after.map((r) => r.keyId)).toEqual([localKeyId(NEW), localKeyId(NEW), localKeyId(NEW)]);
    // Only the data keys were wrapped again: the sealed values are as they were.
    expect(after.map((r) => r.sealed)).toEqual(before.map((r) => r.sealed));
    expect(after.find((r) => r.key === a)?.wrapped).not.toBe(before.find((r) => r.key === a)?.wrapped);
    expect(after.find((r) => r.key === c)?.wrapped).toBe(before.find((r) => r.key === c)?.wrapped);
    await expectValues({ [a]: [first, "value a"], [b]: [second, "value b"], [c]: [first, "value c"] });

    // A second run has nothing to do.
    expect(await rotateDataVaultKeys(server.instance.services.db, localSealer([NEW, OLD]))).toEqual({ rewrapped: 0 });

    restartWith(NEW);
    await expectValues({ [a]: [first, "value a"], [b]: [second, "value b"], [c]: [first, "value c"] });
    // The old secret alone no longer opens anything: every data key moved.
    restartWith(OLD);
    expect((await get(first, a)).status).toBe(500);
    restartWith(NEW);
  });

  it("leaves a value written while it runs as the writer left it", async () => {
    const first = projects[0]!;
    const key = randomBytes(32).toString("base64");
    restartWith(OLD);
    await set(first, key, "before the rotation");
    restartWith(NEW, OLD);
    // The rotation's sealer lets a write land between its reading the row and its update of it.
    const sealer = localSealer([NEW, OLD]);
    let written = false;
    const racing: typeof sealer = {
      ...sealer,
      async wrap(dataKey, context) {
        if (!written) {
          written = true;
          expect((await set(first, key, "written during the rotation")).status).toBe(200);
        }
        return sealer.wrap(dataKey, context);
      },
    };
    const report = await rotateDataVaultKeys(server.instance.services.db, racing);
    expect(written).toBe(true);
    // The row it had read was replaced meanwhile (under the new key already): not re-wrapped, not overwritten.
    expect(report).toEqual({ rewrapped: 0 });
    await expectValues({ [key]: [first, "written during the rotation"] });
    expect((await rows()).find((r) => r.key === key)?.keyId).toBe(localKeyId(NEW));
    await server.instance.services.db.delete(dataVaultValues).where(eq(dataVaultValues.hashedKey, key));
  });

  it("stops at a data key under a secret no longer listed, naming its key id, and changes nothing of it", async () => {
    const lost = secret();
    restartWith(lost);
    const key = randomBytes(32).toString("base64");
    await set(projects[0]!, key, "under a lost key");
    restartWith(NEW);
    const rotation = rotateDataVaultKeys(server.instance.services.db, localSealer([NEW]));
    await expect(rotation).rejects.toBeInstanceOf(UnknownKeyEncryptionKeyError);
    await expect(rotation).rejects.toThrow(localKeyId(lost));
    const [row] = await server.instance.services.db.select().from(dataVaultValues).where(eq(dataVaultValues.hashedKey, key));
    expect(row?.keyId).toBe(localKeyId(lost));
    await server.instance.services.db.delete(dataVaultValues).where(eq(dataVaultValues.hashedKey, key));
  });

  it("runs as `latchkey vault-rotate` against the servers' PostgreSQL database", async ({ skip }) => {
    if (!server.databaseUrl) skip("the command opens the database by DATABASE_URL; PGlite here lives in the test's memory");
    const NEWER = secret();
    const main = fileURLToPath(new URL("../src/main.ts", import.meta.url));
    const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", main, "vault-rotate"], {
      cwd: fileURLToPath(new URL("..", import.meta.url)),
      env: {
        ...process.env,
        DATABASE_URL: server.databaseUrl!,
        STACK_SERVER_SECRET: server.config.serverSecret,
        LATCHKEY_API_URL: "http://localhost:8102",
        LATCHKEY_DATA_VAULT_SECRETS: `${NEWER},${NEW}`,
      },
    });
    expect(stdout).toContain('"rewrapped":3');
    expect(new Set((await rows()).map((r) => r.keyId))).toEqual(new Set([localKeyId(NEWER)]));
    restartWith(NEWER);
    await expectValues({ [a]: [projects[0]!, "value a"], [c]: [projects[0]!, "value c"] });
  });
});
