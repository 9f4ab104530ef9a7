/**
 * Races that really happen, in a known order. On PostgreSQL a connection of
 * the test's own locks some rows (a user's, or the passkeys two removals
 * delete); the requests start one by one, each only once every request
 * still running waits for a lock (those rows', or one a request waiting for
 * them holds); then the rows go free. PostgreSQL hands a row to its waiters
 * first come, first served, so they take it in the order they started, each
 * while the others are still in flight.
 *
 * PGlite has one connection and runs transactions one after another: there
 * the requests simply run in that order, one after the other.
 */
import postgres from "postgres";
import type { TestServer } from "./harness.ts";

export interface LockedRows {
  table: "users" | "passkeys";
  ids: string[];
}

export async function queuedBehind<T>(server: TestServer, rows: LockedRows, requests: (() => Promise<T>)[]): Promise<T[]> {
  if (!server.databaseUrl) {
    const results: T[] = [];
    for (const request of requests) results.push(await request());
    return results;
  }
  const sql = postgres(server.databaseUrl, { max: 2, onnotice: () => {} });
  try {
    let locked!: () => void;
    let release!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const released = new Promise<void>((resolve) => (release = resolve));
    const holding = sql.begin(async (tx) => {
      const found = await tx`select id from ${tx(rows.table)} where id in ${tx(rows.ids)} for update`;
      if (found.length !== rows.ids.length) throw new Error(`Not every row of ${rows.table} ${rows.ids.join(", ")} is there to lock.`);
      locked();
      await released;
    });
    await Promise.race([isLocked, holding]);
    const started: Promise<T>[] = [];
    let settled = 0;
    try {
      for (const request of requests) {
        const running = request();
        started.push(running);
        void running.then(
          () => settled++,
          () => settled++,
        );
        await untilWaiting(sql, () => started.length - settled);
      }
    } finally {
      release();
      await holding;
    }
    return await Promise.all(started);
  } finally {
    await sql.end();
  }
}

/**
 * Until every request still running waits for a lock. One that ends before
 * it reaches the lock must not hang the test: its answer then shows what went
 * wrong. There is no event for "a session started waiting", so this asks
 * PostgreSQL again after each answer.
 */
async function untilWaiting(sql: postgres.Sql, running: () => number): Promise<void> {
  for (;;) {
    const [row] = await sql`
      select count(*)::int as waiting from pg_stat_activity
      where datname = current_database() and cardinality(pg_blocking_pids(pid)) > 0`;
    if (row!.waiting >= running()) return;
  }
}
