import { sql } from "drizzle-orm";
import { bigserial, boolean, index, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";

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
    /**
     * Work waits on it after the commit: the webhook messages of a project with endpoints, made by the fan-out
     * (capabilities/webhooks/domain/fan-out.ts), which clears it in the transaction that writes them.
     */
    pending: boolean("pending").notNull().default(false),
  },
  (t) => [
    index("outbox_events_created_at_idx").on(t.createdAt),
    // Only the few rows still waiting: the fan-out finds them without reading the rest.
    index("outbox_events_pending_idx")
      .on(t.id)
      .where(sql`${t.pending}`),
  ],
);
