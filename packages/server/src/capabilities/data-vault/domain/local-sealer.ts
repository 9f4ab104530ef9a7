/**
 * The sealer without a cloud KMS: one key-encryption key per operator
 * secret (LATCHKEY_DATA_VAULT_SECRETS, or the server secret when unset),
 * derived by HKDF. The first secret's key wraps; every listed one unwraps, so
 * values wrapped before a rotation stay readable until `latchkey vault-rotate`
 * has re-wrapped them (rotate.ts). A key's id is derived from its secret too
 * (under another label, so it reveals nothing of the key): the same secret
 * gives the same id on every replica and after every restart.
 */
import { hkdfSync } from "node:crypto";
import type { ServerConfig } from "../../../config.ts";
import { gcmOpen, gcmSeal } from "./aes-gcm.ts";
import { UnknownKeyEncryptionKeyError, type Sealer } from "./sealer.ts";

const SALT = "latchkey-data-vault";
const KEY_ID_PREFIX = "local-";

function derive(secret: string, info: string, length: number): Buffer {
  return Buffer.from(hkdfSync("sha256", secret, SALT, info, length));
}

/** The id of the key-encryption key a secret gives. */
export function localKeyId(secret: string): string {
  return KEY_ID_PREFIX + derive(secret, "key-encryption-key-id", 8).toString("hex");
}

/** `secrets`: the newest first; at least one. */
export function localSealer(secrets: readonly string[]): Sealer {
  if (secrets.length === 0) throw new Error("The data vault needs at least one secret");
  const keys = new Map(secrets.map((secret) => [localKeyId(secret), derive(secret, "key-encryption-key", 32)]));
  const currentKeyId = localKeyId(secrets[0]!);
  const keyOf = (keyId: string) => {
    const key = keys.get(keyId);
    if (!key) throw new UnknownKeyEncryptionKeyError(keyId);
    return key;
  };
  return {
    currentKeyId,
    canUnwrap: (keyId) => keys.has(keyId),
    async wrap(dataKey, context) {
      return { keyId: currentKeyId, wrapped: gcmSeal(keyOf(currentKeyId), dataKey, context) };
    },
    async unwrap(key, context) {
      return gcmOpen(keyOf(key.keyId), key.wrapped, context);
    },
  };
}

/** The server's sealer: LATCHKEY_DATA_VAULT_SECRETS, or the server secret alone when they are not set. */
export function dataVaultSealerOf(config: Pick<ServerConfig, "dataVaultSecrets" | "serverSecret">): Sealer {
  return localSealer(config.dataVaultSecrets ?? [config.serverSecret]);
}
