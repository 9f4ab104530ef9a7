import { sql } from "drizzle-orm";
import { index, integer, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { projects } from "./projects.ts";

/**
 * Every e-mail the platform sends, from queued to sent (or failed, with the
 * error): the queue and the record in one table.
 */
export const sentEmails = pgTable(
  "sent_emails",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    projectId: text("project_id").notNull().references(() => projects.id, { onDelete: "cascade" }),
    to: jsonb("to").$type<string[]>().notNull(),
    subject: text("subject").notNull(),
    html: text("html").notNull(),
    textBody: text("text_body"),
    /** queued → sending → sent | failed; `outbox` when no SMTP server is configured (development). */
    status: text("status").notNull().default("queued"),
    error: text("error"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    claimedAt: timestamp("claimed_at", { withTimezone: true, mode: "date" }),
    /** Set by each claim; only the holder of the current claim may record the outcome. */
    claimToken: uuid("claim_token"),
    sentAt: timestamp("sent_at", { withTimezone: true, mode: "date" }),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [index("sent_emails_due_idx").on(t.status, t.nextAttemptAt), index("sent_emails_project_idx").on(t.projectId, t.createdAt)],
);
