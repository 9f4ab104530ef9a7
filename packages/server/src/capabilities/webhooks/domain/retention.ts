/**
 * The message log is kept for WEBHOOK_MESSAGES_KEPT_MILLIS (as Svix keeps its own by default); older messages go,
 * their attempts with them (the cascade). Every retry of a message ends within a day and a half, long before.
 */
import { inArray, lt } from "drizzle-orm";
import type { DbOrTx } from "../../../db/connect.ts";
import { webhookMessages } from "../schema.ts";

export const WEBHOOK_MESSAGES_KEPT_MILLIS = 90 * 24 * 3600 * 1000;
const SWEEP_ROWS = 1000;

export async function deleteOldWebhookMessages(db: DbOrTx, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - WEBHOOK_MESSAGES_KEPT_MILLIS);
  // tenancy: housekeeping sweeps every project's old messages
  const batch = db
    .select({ id: webhookMessages.id })
    .from(webhookMessages)
    .where(lt(webhookMessages.createdAt, cutoff))
    .limit(SWEEP_ROWS)
    .for("update", { skipLocked: true });
  // tenancy: the batch above, across projects
  const deleted = await db.delete(webhookMessages).where(inArray(webhookMessages.id, batch)).returning({ id: webhookMessages.id });
  return deleted.length;
}
