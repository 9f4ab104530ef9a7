/**
 * One database handle for both engines: embedded PGlite (zero set-up) or a
 * PostgreSQL server through postgres.js. Drizzle gives both the same API.
 */
import { PGlite, type PGliteOptions } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import { mkdirSync } from "node:fs";
import postgres from "postgres";
import { durableStartParams, SyncingNodeFS } from "./pglite-fsync.ts";
import { seedFromTemplate } from "./pglite-template.ts";
import * as schema from "./schema/index.ts";

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
/** A transaction handle has the same query API as the database. */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
export type DbOrTx = Db | Tx;

export interface Database {
  db: Db;
  kind: "pglite" | "postgres";
  /** The most connections it opens: the postgres.js pool's size; PGlite is one connection in this process. */
  maxConnections: number;
  /**
   * Runs `fn` in one transaction on one connection, with a runner for raw SQL
   * text (several statements allowed, no parameters). Used by migrations.
   */
  rawTransaction<T>(fn: (run: RawRunner) => Promise<T>): Promise<T>;
  /**
   * Subscribes to a NOTIFY channel. `onConnect` runs on every (re)connection
   * of the listener: notifications sent while it was down are lost, so the
   * subscriber must assume anything may have changed.
   */
  listen(channel: string, onMessage: (payload: string) => void, onConnect: () => void): Promise<void>;
  close(): Promise<void>;
}

export type RawRunner = (sqlText: string) => Promise<Record<string, unknown>[]>;

export type DatabaseTarget =
  | { kind: "postgres"; url: string; max?: number }
  | { kind: "pglite"; dataDir?: string; pglite?: PGlite; sharedBuffers?: string; fsync?: boolean };

/**
 * PostgreSQL's page cache inside PGlite (shared_buffers). PGlite keeps
 * PostgreSQL's default of 128MB, and the whole of it becomes resident: it is
 * most of an idle server's memory. An embedded database is small, and a page
 * not in this cache is still in the operating system's file cache, so 16MB is
 * the default; LATCHKEY_PGLITE_SHARED_BUFFERS raises it (config.ts). What else
 * PGlite holds: its WebAssembly memory starts at 128MB (less is refused) but
 * only pages it touches are resident, and V8's compiled code of pglite.wasm.
 */
export const PGLITE_SHARED_BUFFERS_DEFAULT = "16MB";

/**
 * Opens an embedded database with the extensions the migrations create
 * (pg_trgm, for the users search): every PGlite that runs or reads the
 * schema must be opened through here, or its indexes cannot be used.
 * `fsync` (a data directory only) makes every commit durable before it is
 * acknowledged (pglite-fsync.ts); without it PGlite never syncs its files,
 * which is enough for memory and for surviving a killed process, not a power loss.
 */
export function openPGlite({
  sharedBuffers = PGLITE_SHARED_BUFFERS_DEFAULT,
  fsync = false,
  ...options
}: Omit<PGliteOptions, "extensions" | "startParams" | "fs"> & { sharedBuffers?: string; fsync?: boolean } = {}): Promise<PGlite> {
  if (fsync && !options.dataDir) throw new Error("fsync needs a data directory: a database in memory has nothing to sync.");
  const defaults = fsync ? durableStartParams(PGlite.defaultStartParams) : PGlite.defaultStartParams;
  return PGlite.create({
    ...options,
    ...(fsync && options.dataDir ? { fs: new SyncingNodeFS(options.dataDir) } : {}),
    startParams: [...defaults, "-c", `shared_buffers=${sharedBuffers}`],
    extensions: { pg_trgm },
  });
}

const CONNECT_TIMEOUT_SECONDS = 10;

export async function connectDatabase(target: DatabaseTarget): Promise<Database> {
  if (target.kind === "postgres") {
    const maxConnections = target.max ?? 20;
    const client = postgres(target.url, {
      max: maxConnections,
      onnotice: () => {},
      // A server that does not answer fails the request (503) in seconds rather than holding it for postgres.js's 30.
      connect_timeout: CONNECT_TIMEOUT_SECONDS,
      // Timestamps come back as Date; bigint counts as numbers are enough here.
      types: { bigint: postgres.BigInt },
    });
    // postgres.js reads the array types on every new connection, and a connection dropped while it reads
    // them (a restart, pg_terminate_backend) rejects a promise nothing can handle, which ends the process.
    // The types are the database's, the same on every connection: read on the first, then never again.
    try {
      await client`select 1`;
    } catch (error) {
      await client.end({ timeout: 0 }).catch(() => {});
      throw error;
    }
    client.options.fetch_types = false;
    const db = drizzlePostgres(client, { schema }) as unknown as Db;
    return {
      db,
      kind: "postgres",
      maxConnections,
      rawTransaction: (fn) =>
        client.begin(async (tx) => fn(async (text) => [...(await tx.unsafe(text))] as Record<string, unknown>[])) as never,
      listen: async (channel, onMessage, onConnect) => {
        await client.listen(channel, onMessage, onConnect);
      },
      close: () => client.end({ timeout: 5 }),
    };
  }
  if (target.dataDir && !target.pglite) {
    mkdirSync(target.dataDir, { recursive: true });
    await seedFromTemplate(target.dataDir);
  }
  const client = target.pglite ?? (await openPGlite({ dataDir: target.dataDir, sharedBuffers: target.sharedBuffers, fsync: target.fsync }));
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  return {
    db,
    kind: "pglite",
    maxConnections: 1,
    rawTransaction: (fn) =>
      client.transaction(async (tx) =>
        fn(async (text) => {
          const results = await tx.exec(text);
          return (results.at(-1)?.rows ?? []) as Record<string, unknown>[];
        }),
      ),
    listen: async (channel, onMessage, onConnect) => {
      // One process owns an embedded database, so the listener never drops.
      await client.listen(channel, onMessage);
      onConnect();
    },
    close: () => client.close(),
  };
}
