import { sql } from "drizzle-orm";
import { index, integer, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { projects } from "./projects.ts";

/**
 * Work done after a commit, by whichever replica claims it first (jobs/runner.ts): an e-mail to send, later a
 * webhook to deliver. A job is `queued` until due (run_at), `running` while a replica holds its claim (claimed_by,
 * until claimed_until: past that the replica is taken for dead and the job is claimed again), then `done`, or
 * `failed` once its kind's attempts are spent. Finished jobs are deleted by housekeeping (jobs/store.ts).
 */
export const jobs = pgTable(
  "jobs",
  {
    id: uuid("id")
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    /** The registered kind whose handler runs it (jobs/kinds.ts). */
    kind: text("kind").notNull(),
    payload: jsonb("payload").notNull(),
    /** The tenancy the job works for, where it has one; a project's deletion takes its jobs with it. */
    projectId: text("project_id").references(() => projects.id, { onDelete: "cascade" }),
    /** Null for work of the whole project (e-mail) or of none. */
    branchId: text("branch_id"),
    /** queued → running → done | failed (back to queued when an attempt fails and another is due). */
    status: text("status").notNull().default("queued"),
    /** When the job is due (its first run, or its next attempt). */
    runAt: timestamp("run_at", { withTimezone: true, mode: "date" }).notNull(),
    /** Attempts begun, the current one included. */
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    /** Set by each claim; only its holder may record the outcome. */
    claimedBy: text("claimed_by"),
    claimedUntil: timestamp("claimed_until", { withTimezone: true, mode: "date" }),
    finishedAt: timestamp("finished_at", { withTimezone: true, mode: "date" }),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull(),
  },
  (t) => [
    index("jobs_due_idx")
      .on(t.runAt)
      .where(sql`status = 'queued'`),
    index("jobs_claimed_idx")
      .on(t.claimedUntil)
      .where(sql`status = 'running'`),
    index("jobs_finished_idx")
      .on(t.finishedAt)
      .where(sql`status in ('done', 'failed')`),
    index("jobs_project_idx").on(t.projectId),
  ],
);
