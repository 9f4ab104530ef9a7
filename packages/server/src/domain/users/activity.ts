/**
 * Recording that a user is active, on sign-in and refresh: `last_active_at`
 * moves forward at most once per user per minute from each process, so a busy
 * client refreshing often does not turn every refresh into a user-row write;
 * the UTC day is recorded (user_activity_days, read by domain/metrics/) at
 * most once per user per day from each process.
 */
import { and, eq, lt, sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/connect.ts";
import { userActivityDays, users } from "../../db/schema/index.ts";
import type { MaybePromise } from "../../lib/maybe-async.ts";

const MIN_INTERVAL_MILLIS = 60_000;
const MAX_REMEMBERED_USERS = 100_000;
const lastWrite = new Map<string, number>();
const lastDay = new Map<string, string>();

/** The UTC day of a time, `YYYY-MM-DD`. */
export function utcDay(time: Date): string {
  return time.toISOString().slice(0, 10);
}

/** Nothing to wait for when this process wrote both already (see lib/maybe-async.ts); else the writes. */
export function markUserActive(db: DbOrTx, userId: string, now = new Date()): MaybePromise<void> {
  const previous = lastWrite.get(userId);
  const lastActive = previous === undefined || now.getTime() - previous >= MIN_INTERVAL_MILLIS;
  const day = utcDay(now);
  const newDay = lastDay.get(userId) !== day;
  if (!lastActive && !newDay) return undefined;
  if (lastActive) remember(lastWrite, userId, now.getTime());
  if (newDay) remember(lastDay, userId, day);
  return write(db, userId, now, lastActive, newDay ? day : null);
}

function remember<V>(map: Map<string, V>, userId: string, value: V): void {
  if (map.size > MAX_REMEMBERED_USERS) map.clear();
  map.set(userId, value);
}

async function write(db: DbOrTx, userId: string, now: Date, lastActive: boolean, day: string | null): Promise<void> {
  if (lastActive) {
    await db
      .update(users)
      .set({ lastActiveAt: now })
      .where(and(eq(users.id, userId), lt(users.lastActiveAt, new Date(now.getTime() - 1000))));
  }
  if (day !== null) {
    // The tenancy comes from the user's row, in the same statement: callers know only the user's id.
    await db.execute(sql`
      insert into ${userActivityDays} (project_id, branch_id, day, user_id)
      select ${users.projectId}, ${users.branchId}, ${day}::date, ${users.id} from ${users} where ${users.id} = ${userId}
      on conflict do nothing`);
  }
}
