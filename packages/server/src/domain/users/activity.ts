/**
 * `last_active_at`: moved forward on sign-in and refresh. At most one write
 * per user per minute from each process, so a busy client refreshing often
 * does not turn every refresh into a user-row write.
 */
import { and, eq, lt } from "drizzle-orm";
import type { DbOrTx } from "../../db/connect.ts";
import { users } from "../../db/schema/index.ts";
import type { MaybePromise } from "../../lib/maybe-async.ts";

const MIN_INTERVAL_MILLIS = 60_000;
const lastWrite = new Map<string, number>();

/** Nothing to wait for when this process wrote it within the minute (see lib/maybe-async.ts); else the write. */
export function markUserActive(db: DbOrTx, userId: string, now = new Date()): MaybePromise<void> {
  const previous = lastWrite.get(userId);
  if (previous !== undefined && now.getTime() - previous < MIN_INTERVAL_MILLIS) return undefined;
  if (lastWrite.size > 100_000) lastWrite.clear();
  lastWrite.set(userId, now.getTime());
  return writeLastActive(db, userId, now);
}

async function writeLastActive(db: DbOrTx, userId: string, now: Date): Promise<void> {
  await db
    .update(users)
    .set({ lastActiveAt: now })
    .where(and(eq(users.id, userId), lt(users.lastActiveAt, new Date(now.getTime() - 1000))));
}
