/**
 * What the server keeps beside PGlite's own files in LATCHKEY_DATA_DIR
 * (PGlite, like PostgreSQL, ignores files it does not know there): the
 * development server secret, the development keys it prints, and the lock
 * (data-dir-lock.ts). Everything stays inside the directory, so
 * LATCHKEY_DATA_DIR=/x/data writes nothing into /x.
 *
 * Earlier versions kept `server-secret` and `dev-keys.json` in the data
 * directory's parent. A directory that already holds a database but not
 * these files gets a copy of the parent's at its first start: the old files
 * stay, because another data directory beside it (e.g. .latchkey/demo-data)
 * may still need them.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { randomCode } from "../lib/secrets.ts";

export const SERVER_SECRET_FILE = "server-secret";
export const DEV_KEYS_FILE = "dev-keys.json";

/**
 * The path of one of our files in `dataDir`, copied in from where an earlier
 * version kept it when this directory's database predates the move.
 */
export function dataDirFile(dataDir: string, name: string): string {
  const file = join(dataDir, name);
  const legacy = join(dirname(dataDir), name);
  if (!existsSync(file) && existsSync(legacy) && holdsDatabase(dataDir)) copyFileSync(legacy, file);
  return file;
}

/**
 * Development only (no STACK_SERVER_SECRET): a secret made once and kept with
 * the data, so restarts can still decrypt the signing keys sealed with it.
 * Call only while holding the data directory's lock.
 */
export function devServerSecret(dataDir: string): string {
  const file = dataDirFile(dataDir, SERVER_SECRET_FILE);
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomCode(64);
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}

/** PGlite writes PG_VERSION when it creates a database. */
function holdsDatabase(dataDir: string): boolean {
  return existsSync(join(dataDir, "PG_VERSION"));
}
