/**
 * Recording that a user is active, on sign-in and refresh: `last_active_at`
 * moves forward at most once per user per minute from each process, so a busy
 * client refreshing often does not turn every refresh into a user-row write;
 * the UTC day is recorded (user_activity_days, read by domain/metrics/) at
 * most once per user per day from each process.
 */
import { and, eq, lt, sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/connect.ts";
import { users } from "../../db/schema/index.ts";
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
export function markUserActive(db: DbOrTx, userId: string, now: Date): MaybePromise<void> {
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
    // tenancy: callers know only the user's id, unique across tenancies
    await db
      .update(users)
      .set({ lastActiveAt: now })
      .where(and(eq(users.id, userId), lt(users.lastActiveAt, new Date(now.getTime() - 1000))));
  }
  if (day !== null) {
    // One statement from the user's row (callers know only the id): the tenancy, whether the user is
    // anonymous today, and how they came to be active, settled now so the overview only has to count.
    // tenancy: the user's row by its id (unique across tenancies) gives the tenancy of the day written
    await db.execute(sql`
      insert into user_activity_days (project_id, branch_id, day, user_id, is_anonymous, kind)
      select u.project_id, u.branch_id, ${day}::date, u.id, u.is_anonymous,
        case
          when (u.signed_up_at at time zone 'UTC')::date = ${day}::date then 'new'
          when exists (
            select 1 from user_activity_days p
            where p.project_id = u.project_id and p.branch_id = u.branch_id and p.day = ${day}::date - 1 and p.user_id = u.id
          ) then 'retained'
          else 'reactivated'
        end
      from users u where u.id = ${userId}
      on conflict do nothing`);
  }
}
