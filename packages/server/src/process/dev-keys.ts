/**
 * The internal project's keys the development banner prints. Never used in
 * production mode, where no key is printed (main.ts).
 */
import { INTERNAL_PROJECT_ID } from "@latchkey/shared";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import type { ServerConfig } from "../config.ts";
import type { Db } from "../db/connect.ts";
import { createKeySet, isValidProjectKey, newProjectKey } from "../domain/api-keys/project-keys.ts";
import { DEV_KEYS_FILE, dataDirFile } from "./data-dir.ts";

/**
 * Seeded keys (STACK_SEED_*) when set; otherwise a development key set kept
 * in the data directory's dev-keys.json, so every start prints the same working keys.
 */
export async function devKeys(db: Db, config: ServerConfig, now: Date): Promise<Record<string, string>> {
  const seeds = config.seedInternalKeys;
  if (seeds.publishableClientKey || seeds.secretServerKey || seeds.superSecretAdminKey) {
    return Object.fromEntries(
      [
        ["publishable_client_key", seeds.publishableClientKey],
        ["secret_server_key", seeds.secretServerKey],
        ["super_secret_admin_key", seeds.superSecretAdminKey],
      ].filter(([, v]) => v) as [string, string][],
    );
  }
  const file = dataDirFile(config.dataDir, DEV_KEYS_FILE);
  if (existsSync(file)) {
    const saved = JSON.parse(readFileSync(file, "utf8")) as Record<string, string>;
    if (await isValidProjectKey(db, INTERNAL_PROJECT_ID, "secret_server_key", saved.secret_server_key ?? "", now)) return saved;
  }
  const values = {
    publishable_client_key: newProjectKey("publishable_client_key"),
    secret_server_key: newProjectKey("secret_server_key"),
    super_secret_admin_key: newProjectKey("super_secret_admin_key"),
  };
  await createKeySet(db, { projectId: INTERNAL_PROJECT_ID, description: "Development keys", expiresAt: null, values });
  writeFileSync(file, JSON.stringify(values, null, 2), { mode: 0o600 });
  return values;
}
