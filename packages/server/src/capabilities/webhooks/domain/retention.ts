/**
 * The message log is kept for WEBHOOK_MESSAGES_KEPT_MILLIS (as Svix keeps its own by default); older messages go,
 * their attempts with them (the cascade). Every retry of a message ends within a day and a half, long before.
 */
import type { DbOrTx } from "../../../db/connect.ts";
import { sweepOlderThan } from "../../../db/sweep.ts";
import { webhookMessages } from "../schema.ts";

export const WEBHOOK_MESSAGES_KEPT_MILLIS = 90 * 24 * 3600 * 1000;
const SWEEP_ROWS = 1000;

export async function deleteOldWebhookMessages(db: DbOrTx, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - WEBHOOK_MESSAGES_KEPT_MILLIS);
  return sweepOlderThan(db, webhookMessages, webhookMessages.createdAt, cutoff, SWEEP_ROWS);
}
