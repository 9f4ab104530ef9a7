import { bigserial, index, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { tenancyColumns } from "../../db/schema/projects.ts";

/**
 * The saved messages of the AI assistant's threads, per project: each row is
 * one message as the client saved it (JSON), in the order saved (`id`, which
 * keeps appends made in the same millisecond in order). A thread is only its
 * id in its tenancy; the project's deletion takes its messages with it.
 */
export const aiChatMessages = pgTable(
  "ai_chat_messages",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    ...tenancyColumns(),
    threadId: text("thread_id").notNull(),
    content: jsonb("content").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [index("ai_chat_messages_thread_idx").on(t.projectId, t.branchId, t.threadId, t.id)],
);
