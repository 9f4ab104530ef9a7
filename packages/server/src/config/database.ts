/** Where the data is: PostgreSQL (DATABASE_URL) or PGlite in a data directory, and PGlite's memory. */
import { resolve } from "node:path";
import { StartupError } from "../process/startup-error.ts";

export interface DatabaseConfig {
  databaseUrl: string | null;
  /** PGlite's data directory, which also holds the development secret, keys and the one-writer lock (process/data-dir.ts). */
  dataDir: string;
  /** PGlite's shared_buffers (LATCHKEY_PGLITE_SHARED_BUFFERS, e.g. "64MB"); null: db/connect.ts's embedded default. */
  pgliteSharedBuffers: string | null;
  /** Whether PGlite makes each commit durable on disk (LATCHKEY_PGLITE_FSYNC, on unless "off"). */
  pgliteFsync: boolean;
}

/** Where the data is: all that `latchkey migrate` reads. */
export function databaseFromEnv(env: NodeJS.ProcessEnv = process.env): Pick<DatabaseConfig, "databaseUrl" | "dataDir" | "pgliteFsync"> {
  return {
    databaseUrl: env.DATABASE_URL || null,
    dataDir: resolve(env.LATCHKEY_DATA_DIR ?? ".latchkey/data"),
    pgliteFsync: pgliteFsyncFromEnv(env),
  };
}

/**
 * LATCHKEY_PGLITE_FSYNC: "on" (the default) waits for the disk at each commit,
 * so an acknowledged write survives a power loss or an operating system crash;
 * "off" skips that wait, and a crash of the machine can lose the last writes
 * or leave the data directory unreadable (a killed process loses nothing either way).
 */
export function pgliteFsyncFromEnv(env: NodeJS.ProcessEnv): boolean {
  const value = env.LATCHKEY_PGLITE_FSYNC?.trim();
  if (!value || value === "on") return true;
  if (value === "off") return false;
  throw new StartupError(`LATCHKEY_PGLITE_FSYNC must be on or off (got ${JSON.stringify(value)}).`);
}

/** PostgreSQL's own floor for shared_buffers (16 pages of 8kB). */
const MIN_SHARED_BUFFERS_KB = 128;
const SIZE_UNITS_KB = { kB: 1, MB: 1024, GB: 1024 * 1024 } as const;

/** LATCHKEY_PGLITE_SHARED_BUFFERS as PostgreSQL writes sizes ("16MB", "512kB", "1GB"), checked here so a typo is not a cryptic PGlite failure. */
export function pgliteSharedBuffersFromEnv(env: NodeJS.ProcessEnv): string | null {
  const value = env.LATCHKEY_PGLITE_SHARED_BUFFERS?.trim();
  if (!value) return null;
  const match = /^(\d+)(kB|MB|GB)$/.exec(value);
  if (!match || Number(match[1]) * SIZE_UNITS_KB[match[2] as keyof typeof SIZE_UNITS_KB] < MIN_SHARED_BUFFERS_KB) {
    throw new StartupError(
      `LATCHKEY_PGLITE_SHARED_BUFFERS must be a size of at least 128kB written as PostgreSQL does, e.g. 64MB or 1GB (got ${JSON.stringify(value)}).`,
    );
  }
  return value;
}
