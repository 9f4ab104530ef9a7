/**
 * Opens the database at start and makes sure it answers before anything else
 * happens, so an unreachable or misnamed PostgreSQL stops the start with one
 * sentence naming DATABASE_URL and where it points (never its password).
 */
import type { EnvConfig } from "../config.ts";
import { connectDatabase, type Database } from "../db/connect.ts";
import { StartupError } from "./startup-error.ts";

type Where = Pick<EnvConfig, "databaseUrl" | "dataDir" | "pgliteFsync"> & Partial<Pick<EnvConfig, "pgliteSharedBuffers">>;

export async function openDatabase(config: Where): Promise<Database> {
  if (!config.databaseUrl) return openEmbedded(config);
  const target = describeUrl(config.databaseUrl);
  let database: Database | null = null;
  try {
    database = await connectDatabase({ kind: "postgres", url: config.databaseUrl });
    await database.rawTransaction((run) => run("SELECT 1"));
    return database;
  } catch (error) {
    await database?.close().catch(() => {});
    throw connectFailure(error, target);
  }
}

async function openEmbedded({ dataDir, pgliteSharedBuffers, pgliteFsync }: Where): Promise<Database> {
  try {
    return await connectDatabase({ kind: "pglite", dataDir, sharedBuffers: pgliteSharedBuffers ?? undefined, fsync: pgliteFsync });
  } catch (error) {
    throw new StartupError(
      `The embedded database in ${dataDir} (LATCHKEY_DATA_DIR) could not be opened (${error instanceof Error ? error.message : String(error)}): restore it from a backup, or point LATCHKEY_DATA_DIR at another directory.`,
      { cause: error },
    );
  }
}

interface Target {
  /** host:port */
  where: string;
  host: string;
  database: string;
  user: string;
}

function describeUrl(url: string): Target {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new StartupError("DATABASE_URL is not a URL: set it to postgres://user:password@host:5432/database.");
  }
  if (parsed.protocol !== "postgres:" && parsed.protocol !== "postgresql:") {
    throw new StartupError(
      `DATABASE_URL must start with postgres:// or postgresql://, not ${parsed.protocol}//: set it to postgres://user:password@host:5432/database.`,
    );
  }
  const host = decodeURIComponent(parsed.hostname) || "localhost";
  return {
    where: `${host}:${parsed.port || "5432"}`,
    host,
    database: decodeURIComponent(parsed.pathname.slice(1)) || decodeURIComponent(parsed.username) || "postgres",
    user: decodeURIComponent(parsed.username) || "postgres",
  };
}

function connectFailure(error: unknown, { where, host, database, user }: Target): StartupError {
  const code = (error as { code?: string }).code;
  const cause = { cause: error };
  switch (code) {
    case "ECONNREFUSED":
      return new StartupError(
        `DATABASE_URL points at ${where}, where nothing accepts connections: start PostgreSQL there, or fix DATABASE_URL.`,
        cause,
      );
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return new StartupError(`DATABASE_URL names the host ${host}, which does not resolve: fix the host in DATABASE_URL.`, cause);
    case "CONNECT_TIMEOUT":
    case "ETIMEDOUT":
    case "EHOSTUNREACH":
    case "ENETUNREACH":
      return new StartupError(
        `DATABASE_URL points at ${where}, which does not answer: check that PostgreSQL runs there and the network lets this server reach it.`,
        cause,
      );
    case "28P01":
    case "28000":
      return new StartupError(`PostgreSQL at ${where} refused the user "${user}": fix the user or password in DATABASE_URL.`, cause);
    case "3D000":
      return new StartupError(
        `The database "${database}" does not exist on the PostgreSQL server at ${where}: create it (createdb ${database}), or fix its name in DATABASE_URL.`,
        cause,
      );
    default:
      return new StartupError(
        `Could not use the PostgreSQL server at ${where} (DATABASE_URL): ${error instanceof Error ? error.message : String(error)}.`,
        cause,
      );
  }
}
