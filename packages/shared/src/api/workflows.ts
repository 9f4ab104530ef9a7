/**
 * Workflows: a project's own TypeScript, run on the server when an event of
 * the types it names fires (the webhook events, api/webhooks.ts). Each run
 * gets the event and may call the API back with server access to its
 * project, through a workflow token that lives for the run only (the
 * `x-stack-workflow-token` header). Managed by admins under
 * /internal/workflows; each run is logged with its console output.
 */
import { z } from "zod";
import { KnownErrors } from "../known-errors/index.ts";
import { defineEndpoint } from "./endpoint.ts";
import { successJson } from "./json.ts";
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from "./webhooks.ts";

/** A workflow token's life: the run it was minted for has this long to call the API back. */
export const WORKFLOW_TOKEN_LIFETIME_MILLIS = 35_000;
/** The longest a workflow's source may be. */
export const WORKFLOW_SOURCE_MAX_CHARS = 100_000;
/** What a run's log keeps of its console output and of its error; the rest is cut. */
export const WORKFLOW_RUN_OUTPUT_KEPT_CHARS = 10_000;

/** The event types a workflow may run on: the webhook events, less the dashboard's test event. */
export const WORKFLOW_TRIGGER_TYPES = WEBHOOK_EVENT_TYPES.filter((type) => type !== "stack.test") as Exclude<
  WebhookEventType,
  "stack.test"
>[];

const triggerType = z.enum(WORKFLOW_TRIGGER_TYPES as [string, ...string[]]);

export const workflowJson = z.strictObject({
  id: z.string(),
  display_name: z.string(),
  trigger_event_types: z.array(z.string()),
  enabled: z.boolean(),
  source: z.string(),
  created_at_millis: z.number(),
  updated_at_millis: z.number(),
});
export type WorkflowJson = z.infer<typeof workflowJson>;

const workflowFields = {
  display_name: z.string().trim().min(1).max(200),
  trigger_event_types: z.array(triggerType).min(1),
  enabled: z.boolean(),
  source: z.string().max(WORKFLOW_SOURCE_MAX_CHARS),
};
export const workflowCreateBody = z.strictObject({ ...workflowFields, enabled: workflowFields.enabled.optional() });
export type WorkflowCreateBody = z.infer<typeof workflowCreateBody>;
export const workflowUpdateBody = z.strictObject(workflowFields).partial();
export type WorkflowUpdateBody = z.infer<typeof workflowUpdateBody>;

export const WORKFLOW_RUN_STATUSES = ["pending", "running", "succeeded", "failed", "timed_out"] as const;
export type WorkflowRunStatus = (typeof WORKFLOW_RUN_STATUSES)[number];

export const workflowRunJson = z.strictObject({
  id: z.string(),
  workflow_id: z.string(),
  event_type: z.string(),
  status: z.enum(WORKFLOW_RUN_STATUSES),
  /** The script's console output, cut to WORKFLOW_RUN_OUTPUT_KEPT_CHARS. */
  output: z.string(),
  /** Why it failed or timed out; null otherwise. */
  error: z.string().nullable(),
  created_at_millis: z.number(),
  started_at_millis: z.number().nullable(),
  finished_at_millis: z.number().nullable(),
});
export type WorkflowRunJson = z.infer<typeof workflowRunJson>;

export const workflowParams = z.strictObject({ workflow_id: z.string() });

const ADMIN = ["admin"] as const;
const TAGS = ["Workflows"];

export const workflowsEndpoints = {
  listWorkflows: defineEndpoint({
    method: "GET",
    path: "/internal/workflows",
    summary: "The project's workflows, oldest first",
    tags: TAGS,
    access: ADMIN,
    response: z.strictObject({ items: z.array(workflowJson) }),
  }),
  createWorkflow: defineEndpoint({
    method: "POST",
    path: "/internal/workflows",
    summary: "Create a workflow (enabled unless `enabled` is false)",
    tags: TAGS,
    access: ADMIN,
    body: workflowCreateBody,
    status: 201,
    response: workflowJson,
  }),
  getWorkflow: defineEndpoint({
    method: "GET",
    path: "/internal/workflows/:workflow_id",
    summary: "One workflow",
    tags: TAGS,
    access: ADMIN,
    params: workflowParams,
    response: workflowJson,
    errors: [KnownErrors.WorkflowNotFound],
  }),
  updateWorkflow: defineEndpoint({
    method: "PATCH",
    path: "/internal/workflows/:workflow_id",
    summary: "Change a workflow's name, triggers, source or whether it runs",
    tags: TAGS,
    access: ADMIN,
    params: workflowParams,
    body: workflowUpdateBody,
    response: workflowJson,
    errors: [KnownErrors.WorkflowNotFound],
  }),
  deleteWorkflow: defineEndpoint({
    method: "DELETE",
    path: "/internal/workflows/:workflow_id",
    summary: "Delete a workflow and its run log",
    tags: TAGS,
    access: ADMIN,
    params: workflowParams,
    response: successJson,
    errors: [KnownErrors.WorkflowNotFound],
  }),
  listWorkflowRuns: defineEndpoint({
    method: "GET",
    path: "/internal/workflows/:workflow_id/runs",
    summary: "A workflow's most recent runs, newest first",
    tags: TAGS,
    access: ADMIN,
    params: workflowParams,
    response: z.strictObject({ items: z.array(workflowRunJson) }),
    errors: [KnownErrors.WorkflowNotFound],
  }),
};
