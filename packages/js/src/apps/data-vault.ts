/**
 * A data vault store of the server app (`getDataVaultStore(id)`): small
 * secrets per key (a customer's third-party token, say) that the server
 * keeps without being able to read them. Keys and values are hashed and
 * encrypted here with the app's own secret (data-vault-crypto.ts); the
 * server holds only the results. A value read with another secret than the
 * one it was written with is not found (its hashed key differs): null.
 * The store must exist in the project's config (`dataVault.stores.<id>`),
 * else the server answers DATA_VAULT_STORE_DOES_NOT_EXIST, thrown here.
 */
import { DATA_VAULT_SECRET_NOT_STRING_MESSAGE } from "@latchkey/shared/constants";
import { KnownErrors } from "@latchkey/shared/known-errors/index";
import type { AccessType, ApiClient } from "../interface/api-client.ts";
import { dataVaultKeyMaterial, decryptDataVaultValue, encryptDataVaultValue, hashDataVaultKey } from "./data-vault-crypto.ts";

export interface DataVaultOptions {
  /** The app's own secret for this store's values; the server never receives it. Lost, the values are lost. */
  secret: string;
}

export interface DataVaultStore {
  readonly id: string;
  /** Stores `value` under `key`, replacing what was there. */
  setValue(key: string, value: string, options: DataVaultOptions): Promise<void>;
  /** The value stored under `key` with this secret, or null when there is none. */
  getValue(key: string, options: DataVaultOptions): Promise<string | null>;
}

export interface DataVaultContext {
  api: ApiClient;
  accessType: AccessType;
}

/** Checked for callers without types (plain JavaScript), whose secret could be anything. */
function secretOf(options: DataVaultOptions): string {
  const secret: unknown = options?.secret;
  if (typeof secret !== "string") throw new TypeError(DATA_VAULT_SECRET_NOT_STRING_MESSAGE);
  return secret;
}

export function dataVaultStore(ctx: DataVaultContext, id: string): DataVaultStore {
  return {
    id,
    async setValue(key, value, options) {
      const material = await dataVaultKeyMaterial(key, secretOf(options));
      const [hashedKey, encryptedValue] = await Promise.all([hashDataVaultKey(material), encryptDataVaultValue(material, value)]);
      await ctx.api.call("POST /data-vault/stores/:store_id/set", {
        accessType: ctx.accessType,
        params: { store_id: id },
        body: { hashed_key: hashedKey, encrypted_value: encryptedValue },
      });
    },
    async getValue(key, options) {
      const material = await dataVaultKeyMaterial(key, secretOf(options));
      let encrypted: string;
      try {
        const body = await ctx.api.call("POST /data-vault/stores/:store_id/get", {
          accessType: ctx.accessType,
          params: { store_id: id },
          body: { hashed_key: await hashDataVaultKey(material) },
        });
        encrypted = body.encrypted_value;
      } catch (error) {
        if (error instanceof KnownErrors.DataVaultStoreHashedKeyDoesNotExist) return null;
        throw error;
      }
      return decryptDataVaultValue(material, encrypted);
    },
  };
}
