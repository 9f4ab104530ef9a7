/**
 * An admin app's workflows (Latchkey's own): the project's TypeScript run on its events, and each one's recent
 * runs with their status and console output (the README's "Workflows" says what a script may do).
 */
import type { WorkflowJson, WorkflowRunJson, WorkflowRunStatus } from "@latchkey/shared";
import type { AdminProjectContext } from "../models/admin-project.ts";

export interface Workflow {
  id: string;
  displayName: string;
  /** The event types that run it (the webhook event types). */
  triggerEventTypes: string[];
  enabled: boolean;
  /** TypeScript whose default export is called with each event. */
  source: string;
  createdAt: Date;
  updatedAt: Date;
}

export interface WorkflowRun {
  id: string;
  workflowId: string;
  eventType: string;
  status: WorkflowRunStatus;
  /** The script's console output, cut to 10,000 characters. */
  output: string;
  /** Why it failed or timed out; null otherwise. */
  error: string | null;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
}

export interface WorkflowCreateOptions {
  displayName: string;
  triggerEventTypes: string[];
  source: string;
  /** True unless said otherwise. */
  enabled?: boolean;
}
export type WorkflowUpdateOptions = Partial<WorkflowCreateOptions>;

function workflowFromJson(json: WorkflowJson): Workflow {
  return {
    id: json.id,
    displayName: json.display_name,
    triggerEventTypes: json.trigger_event_types,
    enabled: json.enabled,
    source: json.source,
    createdAt: new Date(json.created_at_millis),
    updatedAt: new Date(json.updated_at_millis),
  };
}

function runFromJson(json: WorkflowRunJson): WorkflowRun {
  const at = (millis: number | null) => (millis === null ? null : new Date(millis));
  return {
    id: json.id,
    workflowId: json.workflow_id,
    eventType: json.event_type,
    status: json.status,
    output: json.output,
    error: json.error,
    createdAt: new Date(json.created_at_millis),
    startedAt: at(json.started_at_millis),
    finishedAt: at(json.finished_at_millis),
  };
}

function bodyOf(options: WorkflowUpdateOptions) {
  return {
    ...(options.displayName !== undefined && { display_name: options.displayName }),
    ...(options.triggerEventTypes !== undefined && { trigger_event_types: options.triggerEventTypes }),
    ...(options.source !== undefined && { source: options.source }),
    ...(options.enabled !== undefined && { enabled: options.enabled }),
  };
}

export class AdminWorkflows {
  constructor(private readonly context: AdminProjectContext) {}

  private get asAdmin() {
    return { accessType: "admin", adminSession: this.context.adminSession } as const;
  }

  async listWorkflows(): Promise<Workflow[]> {
    const body = await this.context.api.call("GET /internal/workflows", this.asAdmin);
    return body.items.map(workflowFromJson);
  }

  async createWorkflow(options: WorkflowCreateOptions): Promise<Workflow> {
    const body = {
      display_name: options.displayName,
      trigger_event_types: options.triggerEventTypes,
      source: options.source,
      ...bodyOf(options),
    };
    return workflowFromJson(await this.context.api.call("POST /internal/workflows", { ...this.asAdmin, body }));
  }

  async updateWorkflow(id: string, options: WorkflowUpdateOptions): Promise<Workflow> {
    const call = { ...this.asAdmin, params: { workflow_id: id }, body: bodyOf(options) };
    return workflowFromJson(await this.context.api.call("PATCH /internal/workflows/:workflow_id", call));
  }

  async deleteWorkflow(id: string): Promise<void> {
    await this.context.api.call("DELETE /internal/workflows/:workflow_id", { ...this.asAdmin, params: { workflow_id: id } });
  }

  /** The workflow's most recent runs (up to 50), newest first. */
  async listWorkflowRuns(id: string): Promise<WorkflowRun[]> {
    const body = await this.context.api.call("GET /internal/workflows/:workflow_id/runs", { ...this.asAdmin, params: { workflow_id: id } });
    return body.items.map(runFromJson);
  }
}
