/**
 * Housekeeping's delete of old rows, for the tables whose rows expire (webhook messages, workflow runs, CLI login
 * requests): at most `batch` rows at a time, so one sweep never holds many locks or runs long, and rows another
 * process's sweep is deleting are skipped rather than waited for (FOR UPDATE SKIP LOCKED), so concurrent sweeps
 * share the work.
 */
import { inArray, lt } from "drizzle-orm";
import type { AnyPgColumn, PgTable } from "drizzle-orm/pg-core";
import type { DbOrTx } from "./connect.ts";

/** Deletes up to `batch` rows of `table` whose `column` is before `cutoff`, across all projects; how many went. */
export async function sweepOlderThan(
  db: DbOrTx,
  table: PgTable & { id: AnyPgColumn },
  column: AnyPgColumn,
  cutoff: Date,
  batch: number,
): Promise<number> {
  // tenancy: housekeeping sweeps every project's old rows
  const old = db.select({ id: table.id }).from(table).where(lt(column, cutoff)).limit(batch).for("update", { skipLocked: true });
  // tenancy: the batch above, across projects
  const deleted = await db.delete(table).where(inArray(table.id, old)).returning({ id: table.id });
  return deleted.length;
}
