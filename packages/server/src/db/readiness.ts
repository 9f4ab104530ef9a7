/**
 * Whether this process can serve: the database answers a query, and every
 * migration this build ships is applied (a replica started from a newer build
 * than the schema, or a database restored from an older backup, is not ready).
 *
 * A load balancer or orchestrator may probe every replica every second, and a
 * storm of probes must not become a storm of queries: one check runs at a
 * time, and its answer is kept for a moment.
 */
import { sql } from "drizzle-orm";
import type { Clock } from "../lib/clock.ts";
import type { Database } from "./connect.ts";
import { migrationFiles } from "./migrate.ts";

/** How long an answer is reused. */
export const READINESS_CACHE_MILLIS = 1000;
/** A database that has not answered by then counts as down (a dropped network can hang a query for minutes). */
const QUERY_DEADLINE_MILLIS = 2000;

export type ReadinessCheck = "database" | "migrations";

export type ReadinessResult = { ready: true } | { ready: false; failed: ReadinessCheck; message: string; pendingMigrations?: string[] };

export class Readiness {
  readonly #expected: string[];
  #last: { at: number; result: ReadinessResult } | null = null;
  #running: Promise<ReadinessResult> | null = null;

  constructor(
    private readonly database: Database,
    /** How long an answer has been kept (lib/clock.ts; tests move it). */
    private readonly clock: Clock,
  ) {
    this.#expected = migrationFiles().map((file) => file.name);
  }

  check(): Promise<ReadinessResult> {
    if (this.#last && this.clock.now() - this.#last.at < READINESS_CACHE_MILLIS) return Promise.resolve(this.#last.result);
    this.#running ??= this.probe().then((result) => {
      this.#last = { at: this.clock.now(), result };
      this.#running = null;
      return result;
    });
    return this.#running;
  }

  private async probe(): Promise<ReadinessResult> {
    let applied: Set<string>;
    try {
      applied = await withDeadline(this.appliedMigrations(), QUERY_DEADLINE_MILLIS);
    } catch (error) {
      return { ready: false, failed: "database", message: `The database did not answer: ${(error as Error).message}` };
    }
    const pending = this.#expected.filter((name) => !applied.has(name));
    if (pending.length > 0) {
      return {
        ready: false,
        failed: "migrations",
        message: `${pending.length} migration(s) not applied: run \`latchkey migrate\` (or restart a server, which migrates at start).`,
        pendingMigrations: pending,
      };
    }
    return { ready: true };
  }

  private async appliedMigrations(): Promise<Set<string>> {
    const result = await this.database.db.execute(sql`select name from latchkey_migrations`);
    // postgres.js answers with the rows; PGlite with { rows }.
    const rows = (Array.isArray(result) ? result : (result as unknown as { rows: { name: string }[] }).rows) as { name: string }[];
    return new Set(rows.map((row) => row.name));
  }
}

function withDeadline<T>(promise: Promise<T>, millis: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${millis} ms`)), millis);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}
