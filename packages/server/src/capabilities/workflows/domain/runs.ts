/**
 * Workflow runs are written in the transaction of the change whose event triggers them (capability.ts subscribes
 * this to the events as they are recorded), as webhook messages are: a run exists exactly when its change
 * committed, with the event as a webhook would carry it, and a `workflow.run` job that the job runner runs once
 * (run-job.ts). Only enabled workflows whose triggers name the event's type get a run, and only for changes made
 * outside a workflow run's own calls.
 */
import { and, eq } from "drizzle-orm";
import type { DomainEvent } from "../../../events/domain-events.ts";
import { oncePerTransaction } from "../../../events/once-per-transaction.ts";
import type { EventTx } from "../../../events/transaction.ts";
import { enqueueJob } from "../../../jobs/store.ts";
import type { Services } from "../../../services.ts";
import { webhookEventData } from "../../webhooks/domain/messages.ts";
import { workflowRuns, workflows, type WorkflowRow } from "../schema.ts";
import { inWorkflowCall } from "./workflow-calls.ts";

/** The enabled workflows of a project, read once per transaction that records events for it. */
const workflowsOnce = oncePerTransaction<WorkflowRow[]>();

function enabledWorkflows(tx: EventTx, projectId: string): Promise<WorkflowRow[]> {
  return workflowsOnce(tx, projectId, async () =>
    tx
      .select()
      .from(workflows)
      .where(and(eq(workflows.projectId, projectId), eq(workflows.enabled, true))),
  );
}

/** In the change's transaction: a run and its job per enabled workflow that the event triggers. */
export async function recordWorkflowRuns(services: Services, tx: EventTx, events: readonly DomainEvent[]): Promise<void> {
  // A workflow's own changes trigger no workflow (workflow-calls.ts).
  if (inWorkflowCall()) return;
  for (const event of events) {
    const triggered = (await enabledWorkflows(tx, event.projectId)).filter((w) => w.triggerEventTypes.includes(event.type));
    if (triggered.length === 0) continue;
    const data = await webhookEventData(services, tx, event);
    if (data === null) continue;
    const now = services.clock.date();
    for (const workflow of triggered) {
      const [run] = await tx
        .insert(workflowRuns)
        .values({
          projectId: event.projectId,
          workflowId: workflow.id,
          eventType: event.type,
          event: { type: event.type, data },
          createdAt: now,
        })
        .returning({ id: workflowRuns.id });
      await enqueueJob(
        tx,
        { kind: "workflow.run", payload: { run_id: run!.id }, tenancy: { projectId: event.projectId, branchId: null } },
        now,
      );
    }
  }
}
