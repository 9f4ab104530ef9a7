/**
 * The data vault: small per-key secrets an app keeps on the server without
 * the server (or its operator) being able to read them. The SDK encrypts and
 * hashes on the app's side with a secret only the app holds (the format is in
 * @latchkey/js, apps/data-vault-crypto.ts), so the server sees a hashed key
 * and an encrypted value, both opaque, and stores them per store of the
 * project's config (`dataVault.stores.<id>`). Writing a key again replaces
 * its value.
 */
import { z } from "zod";
import { KnownErrors } from "../known-errors/index.ts";
import { defineEndpoint } from "./endpoint.ts";
import { successJson } from "./json.ts";

/** The store id as the URL carries it; any string, checked against the config (an unknown one is a coded error, not a schema error). */
export const dataVaultStoreParams = z.strictObject({ store_id: z.string() });

/** A key as the SDK hashes it (44 base64 characters); the server needs only that it is not empty. */
export const dataVaultHashedKeySchema = z.string().min(1);

export const dataVaultSetBody = z.strictObject({
  hashed_key: dataVaultHashedKeySchema,
  /** Stored and answered as sent; an empty string is a value too. */
  encrypted_value: z.string(),
});
export type DataVaultSetBody = z.infer<typeof dataVaultSetBody>;

export const dataVaultGetBody = z.strictObject({ hashed_key: dataVaultHashedKeySchema });
export type DataVaultGetBody = z.infer<typeof dataVaultGetBody>;

export const dataVaultValueJson = z.strictObject({ encrypted_value: z.string() });
export type DataVaultValueJson = z.infer<typeof dataVaultValueJson>;

const SERVER = ["server", "admin"] as const;

export const dataVaultEndpoints = {
  setDataVaultValue: defineEndpoint({
    method: "POST",
    path: "/data-vault/stores/:store_id/set",
    summary: "Store an encrypted value under a hashed key in a data vault store (replacing any value it had)",
    tags: ["Data vault"],
    access: SERVER,
    params: dataVaultStoreParams,
    body: dataVaultSetBody,
    response: successJson,
    errors: [KnownErrors.DataVaultStoreDoesNotExist],
  }),
  getDataVaultValue: defineEndpoint({
    method: "POST",
    path: "/data-vault/stores/:store_id/get",
    summary: "The encrypted value stored under a hashed key in a data vault store",
    tags: ["Data vault"],
    access: SERVER,
    params: dataVaultStoreParams,
    body: dataVaultGetBody,
    response: dataVaultValueJson,
    errors: [KnownErrors.DataVaultStoreDoesNotExist, KnownErrors.DataVaultStoreHashedKeyDoesNotExist],
  }),
};
