import { bigserial, index, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * What happened, written in the transaction of the change itself (events/record.ts): a row exists exactly when
 * its change committed. Ids ascend in insertion order, for consumers that read on from the last id they took.
 * No foreign key to projects: a project's deletion is itself an event, and rows outlive it until housekeeping.
 */
export const outboxEvents = pgTable(
  "outbox_events",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    projectId: text("project_id").notNull(),
    /** Null for events of the whole project (its settings, keys or definitions). */
    branchId: text("branch_id"),
    type: text("type").notNull(),
    payload: jsonb("payload").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [index("outbox_events_created_at_idx").on(t.createdAt)],
);
