/**
 * The run log is kept for WORKFLOW_RUNS_KEPT_MILLIS, as the webhook message log is
 * (capabilities/webhooks/domain/retention.ts); older runs go, a batch per sweep.
 */
import { inArray, lt } from "drizzle-orm";
import type { DbOrTx } from "../../../db/connect.ts";
import { WEBHOOK_MESSAGES_KEPT_MILLIS } from "../../webhooks/domain/retention.ts";
import { workflowRuns } from "../schema.ts";

export const WORKFLOW_RUNS_KEPT_MILLIS = WEBHOOK_MESSAGES_KEPT_MILLIS;
const SWEEP_ROWS = 1000;

export async function deleteOldWorkflowRuns(db: DbOrTx, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - WORKFLOW_RUNS_KEPT_MILLIS);
  // tenancy: housekeeping sweeps every project's old runs
  const batch = db
    .select({ id: workflowRuns.id })
    .from(workflowRuns)
    .where(lt(workflowRuns.createdAt, cutoff))
    .limit(SWEEP_ROWS)
    .for("update", { skipLocked: true });
  // tenancy: the batch above, across projects
  const deleted = await db.delete(workflowRuns).where(inArray(workflowRuns.id, batch)).returning({ id: workflowRuns.id });
  return deleted.length;
}
