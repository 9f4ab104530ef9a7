/** A project's workflows as admins manage them (routes/internal/workflows), and the run log they read. */
import { KnownErrors, type WorkflowCreateBody, type WorkflowJson, type WorkflowRunJson, type WorkflowUpdateBody } from "@latchkey/shared";
import { and, desc, eq } from "drizzle-orm";
import { CompileError, compileModule } from "../../../domain/emails/render/compile.ts";
import type { Services } from "../../../services.ts";
import { workflowRuns, workflows, type WorkflowRow, type WorkflowRunRow } from "../schema.ts";

/** The runs a workflow's log lists (its most recent). */
export const WORKFLOW_RUNS_LISTED = 50;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The script a run executes (run-job.ts): TypeScript that imports nothing. A CompileError says why it cannot be. */
export function compileWorkflow(source: string): Promise<string> {
  return compileModule(source, "workflow", { loader: "ts", allowedImports: [] });
}

/**
 * Refuses a source that cannot run, as a field of the request (the compiler's words): checked when it is saved, so
 * its author learns it then and not from a failed run.
 */
async function assertCompiles(source: string): Promise<void> {
  try {
    await compileWorkflow(source);
  } catch (error) {
    if (error instanceof CompileError) throw new KnownErrors.SchemaError(`body.source: ${error.message}`);
    throw error;
  }
}

export function workflowView(row: WorkflowRow): WorkflowJson {
  return {
    id: row.id,
    display_name: row.displayName,
    trigger_event_types: row.triggerEventTypes,
    enabled: row.enabled,
    source: row.source,
    created_at_millis: row.createdAt.getTime(),
    updated_at_millis: row.updatedAt.getTime(),
  };
}

export function workflowRunView(row: WorkflowRunRow): WorkflowRunJson {
  return {
    id: row.id,
    workflow_id: row.workflowId,
    event_type: row.eventType,
    status: row.status,
    output: row.output,
    error: row.error,
    created_at_millis: row.createdAt.getTime(),
    started_at_millis: row.startedAt?.getTime() ?? null,
    finished_at_millis: row.finishedAt?.getTime() ?? null,
  };
}

export async function listWorkflows(services: Services, projectId: string): Promise<WorkflowRow[]> {
  return services.db.select().from(workflows).where(eq(workflows.projectId, projectId)).orderBy(workflows.createdAt, workflows.id);
}

export async function createWorkflow(services: Services, projectId: string, body: WorkflowCreateBody): Promise<WorkflowRow> {
  await assertCompiles(body.source);
  const now = services.clock.date();
  const [row] = await services.db
    .insert(workflows)
    .values({
      projectId,
      displayName: body.display_name,
      triggerEventTypes: [...new Set(body.trigger_event_types)],
      enabled: body.enabled ?? true,
      source: body.source,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  return row!;
}

/** The project's workflow `id`, or WORKFLOW_NOT_FOUND (an id that is not a UUID names no workflow either). */
export async function getWorkflow(services: Services, projectId: string, id: string): Promise<WorkflowRow> {
  const [row] = UUID.test(id)
    ? await services.db
        .select()
        .from(workflows)
        .where(and(eq(workflows.projectId, projectId), eq(workflows.id, id)))
    : [];
  if (!row) throw new KnownErrors.WorkflowNotFound(id);
  return row;
}

export async function updateWorkflow(services: Services, projectId: string, id: string, body: WorkflowUpdateBody): Promise<WorkflowRow> {
  await getWorkflow(services, projectId, id);
  if (body.source !== undefined) await assertCompiles(body.source);
  const [row] = await services.db
    .update(workflows)
    .set({
      ...(body.display_name !== undefined && { displayName: body.display_name }),
      ...(body.trigger_event_types !== undefined && { triggerEventTypes: [...new Set(body.trigger_event_types)] }),
      ...(body.enabled !== undefined && { enabled: body.enabled }),
      ...(body.source !== undefined && { source: body.source }),
      updatedAt: services.clock.date(),
    })
    .where(and(eq(workflows.projectId, projectId), eq(workflows.id, id)))
    .returning();
  if (!row) throw new KnownErrors.WorkflowNotFound(id);
  return row;
}

/** Deletes the workflow and, with it, its run log (the cascade). */
export async function deleteWorkflow(services: Services, projectId: string, id: string): Promise<void> {
  await getWorkflow(services, projectId, id);
  await services.db.delete(workflows).where(and(eq(workflows.projectId, projectId), eq(workflows.id, id)));
}

export async function listWorkflowRuns(services: Services, projectId: string, id: string): Promise<WorkflowRunRow[]> {
  await getWorkflow(services, projectId, id);
  return services.db
    .select()
    .from(workflowRuns)
    .where(and(eq(workflowRuns.projectId, projectId), eq(workflowRuns.workflowId, id)))
    .orderBy(desc(workflowRuns.createdAt), desc(workflowRuns.id))
    .limit(WORKFLOW_RUNS_LISTED);
}
