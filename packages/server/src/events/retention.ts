/**
 * Outbox rows are kept for operators and for work that reads them after the
 * commit, and deleted by housekeeping once older than OUTBOX_EVENTS_KEPT_MILLIS
 * (this process's own subscribers got them in memory at the commit). A row
 * still pending (the webhook fan-out has not taken it) is kept, however old.
 */
import { sql } from "drizzle-orm";
import type { Db } from "../db/connect.ts";
import { queryRows } from "../db/rows.ts";
import { outboxEvents } from "../db/schema/index.ts";

export const OUTBOX_EVENTS_KEPT_MILLIS = 7 * 86_400_000;
const BATCH = 5000;

/** Deletes the events older than kept, a batch at a time (short transactions); returns how many. */
export async function deleteOldOutboxEvents(db: Db, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - OUTBOX_EVENTS_KEPT_MILLIS);
  let deleted = 0;
  for (;;) {
    // tenancy: housekeeping deletes the old events of every project
    const rows = await queryRows(
      db,
      sql`
      delete from ${outboxEvents} where ${outboxEvents.id} in (
        select ${outboxEvents.id} from ${outboxEvents} where ${outboxEvents.createdAt} < ${cutoff.toISOString()}::timestamptz and not ${outboxEvents.pending} limit ${BATCH}
      ) returning 1 as one`,
    );
    deleted += rows.length;
    if (rows.length < BATCH) return deleted;
  }
}
