/**
 * The run log is kept for WORKFLOW_RUNS_KEPT_MILLIS, as the webhook message log is
 * (capabilities/webhooks/domain/retention.ts); older runs go, a batch per sweep.
 */
import type { DbOrTx } from "../../../db/connect.ts";
import { sweepOlderThan } from "../../../db/sweep.ts";
import { WEBHOOK_MESSAGES_KEPT_MILLIS } from "../../webhooks/domain/retention.ts";
import { workflowRuns } from "../schema.ts";

export const WORKFLOW_RUNS_KEPT_MILLIS = WEBHOOK_MESSAGES_KEPT_MILLIS;
const SWEEP_ROWS = 1000;

export async function deleteOldWorkflowRuns(db: DbOrTx, now: Date): Promise<number> {
  return sweepOlderThan(db, workflowRuns, workflowRuns.createdAt, new Date(now.getTime() - WORKFLOW_RUNS_KEPT_MILLIS), SWEEP_ROWS);
}
