/**
 * One-time codes are kept a while after they expire, so a late click on a
 * link still hears "expired" rather than "not found"; after that they are
 * only dead rows. Some are made without a signed-in user (passkey
 * challenges, sign-in codes), so without clean-up anyone could grow the
 * table for ever.
 */
import { inArray, lt } from "drizzle-orm";
import type { Db } from "../../db/connect.ts";
import { verificationCodes } from "../../db/schema/index.ts";

/** How long past its expiry a code is kept. */
export const EXPIRED_CODE_RETENTION_MILLIS = 7 * 24 * 3600 * 1000;
const BATCH = 1000;

/** Deletes codes expired for longer than the retention, a batch at a time (short transactions); returns how many. */
export async function deleteExpiredCodes(db: Db, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - EXPIRED_CODE_RETENTION_MILLIS);
  let deleted = 0;
  for (;;) {
    // tenancy: housekeeping deletes expired codes of every project
    const batch = db
      .select({ id: verificationCodes.id })
      .from(verificationCodes)
      .where(lt(verificationCodes.expiresAt, cutoff))
      .limit(BATCH);
    // tenancy: the rows of the batch above, by id
    const rows = await db.delete(verificationCodes).where(inArray(verificationCodes.id, batch)).returning({ id: verificationCodes.id });
    deleted += rows.length;
    if (rows.length < BATCH) return deleted;
  }
}
