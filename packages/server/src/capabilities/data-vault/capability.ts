/**
 * The data vault: per-key secrets an app stores without the server being
 * able to read them. The SDK hashes the key and encrypts the value with the
 * app's own secret; the server keeps what it gets per store of the
 * project's config (`dataVault.stores.<id>`), by hashed key (routes/), and
 * seals it once more at rest: each value under a data key of its own,
 * wrapped by a key-encryption key from the operator's secrets
 * (domain/local-sealer.ts, behind the Sealer interface of domain/sealer.ts).
 * `latchkey vault-rotate` re-wraps every data key under the newest secret
 * (domain/rotate.ts).
 *
 * Outside this folder: the wire schemas (`dataVaultEndpoints`) and the known
 * errors are in @latchkey/shared (api/data-vault.ts, known-errors/other.ts);
 * the SDK's side, where the encryption happens, in @latchkey/js
 * (apps/data-vault.ts); the stores' list in the dashboard's configuration
 * page; the operator's secrets in config.ts (LATCHKEY_DATA_VAULT_SECRETS);
 * the table's migration in db/migrations/, with everyone else's.
 */
import { dataVaultEndpoints } from "@latchkey/shared";
import { defineCapability } from "../define.ts";
import { dataVaultValues } from "./schema.ts";

export default defineCapability({
  name: "data-vault",
  contract: dataVaultEndpoints,
  tables: [dataVaultValues],
  // Values go with their project (the rows cascade); a store removed from the config keeps its rows, unreachable,
  // so that adding it back (an override undone) finds them again.
  events: { subscribes: [] },
  configKeys: ["dataVault.stores"],
  housekeeping: [],
  jobs: [],
});
