import { sql } from "drizzle-orm";
import { boolean, index, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { projects } from "../../db/schema/projects.ts";

/**
 * A project's workflows: TypeScript run when an event of `trigger_event_types` fires (domain/runs.ts). Kept
 * here rather than in the project's config: config writes drop `workflows.*` keys (WIRE-next.md §1.3).
 */
export const workflows = pgTable(
  "workflows",
  {
    id: uuid("id")
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    displayName: text("display_name").notNull(),
    triggerEventTypes: text("trigger_event_types").array().notNull(),
    enabled: boolean("enabled").notNull().default(true),
    source: text("source").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull(),
  },
  (t) => [index("workflows_project_idx").on(t.projectId, t.createdAt)],
);

/**
 * One run of a workflow, written with the change whose event triggered it (domain/runs.ts) and completed by its
 * `workflow.run` job (domain/run-job.ts). `event` is the event as a webhook would send it, at that commit.
 */
export const workflowRuns = pgTable(
  "workflow_runs",
  {
    id: uuid("id")
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    projectId: text("project_id").notNull(),
    workflowId: uuid("workflow_id")
      .notNull()
      .references(() => workflows.id, { onDelete: "cascade" }),
    eventType: text("event_type").notNull(),
    event: jsonb("event").notNull(),
    status: text("status", { enum: ["pending", "running", "succeeded", "failed", "timed_out"] })
      .notNull()
      .default("pending"),
    /** The script's console output, cut to WORKFLOW_RUN_OUTPUT_KEPT_CHARS. */
    output: text("output").notNull().default(""),
    error: text("error"),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull(),
    startedAt: timestamp("started_at", { withTimezone: true, mode: "date" }),
    finishedAt: timestamp("finished_at", { withTimezone: true, mode: "date" }),
  },
  (t) => [
    index("workflow_runs_workflow_idx").on(t.workflowId, t.createdAt),
    // Housekeeping's sweep of old runs, across projects.
    index("workflow_runs_created_at_idx").on(t.createdAt),
  ],
);

/**
 * The token a run calls the API back with (`x-stack-workflow-token`), stored as its SHA-256 digest: server
 * access to `project_id` until `expires_at`, deleted when the run ends (domain/tokens.ts).
 */
export const workflowTokens = pgTable(
  "workflow_tokens",
  {
    digest: text("digest").primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    runId: uuid("run_id")
      .notNull()
      .references(() => workflowRuns.id, { onDelete: "cascade" }),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }).notNull(),
  },
  (t) => [index("workflow_tokens_expires_at_idx").on(t.expiresAt)],
);

export type WorkflowRow = typeof workflows.$inferSelect;
export type WorkflowRunRow = typeof workflowRuns.$inferSelect;
