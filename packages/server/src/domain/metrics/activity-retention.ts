/**
 * User activity days (db/schema/users.ts) are only read for the overview's
 * last 31 days and its 30-day active users; twice that is kept, and older
 * days are deleted by housekeeping.
 */
import { sql } from "drizzle-orm";
import type { Db } from "../../db/connect.ts";
import { queryRows } from "../../db/rows.ts";
import { userActivityDays } from "../../db/schema/index.ts";
import { utcDay } from "../users/activity.ts";

export const ACTIVITY_DAYS_KEPT = 62;
const BATCH = 5000;

/** The first UTC day kept at this time, `YYYY-MM-DD`. */
export function firstKeptActivityDay(now: Date): string {
  return utcDay(new Date(now.getTime() - (ACTIVITY_DAYS_KEPT - 1) * 86_400_000));
}

/**
 * Deletes the days before the ones kept, a batch at a time (short
 * transactions; the table has no index led by the day, so housekeeping calls
 * this once a day); returns how many rows.
 */
export async function deleteOldActivityDays(db: Db, now: Date): Promise<number> {
  const cutoff = firstKeptActivityDay(now);
  let deleted = 0;
  for (;;) {
    // tenancy: housekeeping deletes the old days of every project
    const rows = await queryRows(
      db,
      sql`
      delete from ${userActivityDays} where ctid in (
        select ctid from ${userActivityDays} where ${userActivityDays.day} < ${cutoff}::date limit ${BATCH}
      ) returning 1 as one`,
    );
    const count = rows.length;
    deleted += count;
    if (count < BATCH) return deleted;
  }
}
