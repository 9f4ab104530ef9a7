import { sql } from "drizzle-orm";
import { boolean, index, integer, jsonb, pgTable, smallint, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { projects } from "../../db/schema/projects.ts";

/**
 * Where a project's webhooks go: one row per receiving URL. Ids and fields follow the Svix API the tools of
 * webhook receivers speak (ep_…, filter types, a signing secret per endpoint). The secret is sealed with the
 * server secret (it must be shown again and used to sign, so it cannot be a digest); after a rotation the
 * previous one signs too until `previous_secret_expires_at`, so receivers can switch without losing a message.
 */
export const webhookEndpoints = pgTable(
  "webhook_endpoints",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    url: text("url").notNull(),
    description: text("description").notNull().default(""),
    /** An owner's choice, or set when the endpoint failed for too long (`disabled_reason`). */
    disabled: boolean("disabled").notNull().default(false),
    disabledReason: text("disabled_reason", { enum: ["manual", "failing"] }),
    /** Null: every event type. */
    filterTypes: text("filter_types").array(),
    /** The caller's own id for the endpoint (Svix `uid`), unique in the project when set. */
    uid: text("uid"),
    metadata: jsonb("metadata").notNull().default({}),
    rateLimit: integer("rate_limit"),
    version: integer("version").notNull().default(1),
    secretSealed: text("secret_sealed").notNull(),
    previousSecretSealed: text("previous_secret_sealed"),
    previousSecretExpiresAt: timestamp("previous_secret_expires_at", { withTimezone: true, mode: "date" }),
    /** Since when every attempt failed (null after a success): past WEBHOOK_DISABLE_AFTER_MILLIS it is disabled. */
    failingSince: timestamp("failing_since", { withTimezone: true, mode: "date" }),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull(),
  },
  (t) => [
    index("webhook_endpoints_project_idx").on(t.projectId, t.createdAt),
    uniqueIndex("webhook_endpoints_uid_idx")
      .on(t.projectId, t.uid)
      .where(sql`uid is not null`),
  ],
);

/**
 * One event sent to a project's endpoints: written by the fan-out from the outbox once the change it reports
 * committed (domain/fan-out.ts), or by the Svix-compatible API with its caller's payload.
 */
export const webhookMessages = pgTable(
  "webhook_messages",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    eventType: text("event_type").notNull(),
    /** The sender's idempotency id (Svix `eventId`); null for the server's own events. */
    eventId: text("event_id"),
    payload: jsonb("payload").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull(),
  },
  (t) => [
    index("webhook_messages_project_idx").on(t.projectId, t.createdAt),
    // Housekeeping's sweep of old messages, across projects.
    index("webhook_messages_created_at_idx").on(t.createdAt),
  ],
);

/**
 * Each try to deliver a message to an endpoint, as the message log shows it. `status`: 0 succeeded, 1 pending,
 * 2 failed, 3 sending (Svix's numbers). `response` is the receiver's answer, cut to WEBHOOK_RESPONSE_KEPT_CHARS.
 */
export const webhookAttempts = pgTable(
  "webhook_attempts",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id").notNull(),
    messageId: text("message_id")
      .notNull()
      .references(() => webhookMessages.id, { onDelete: "cascade" }),
    endpointId: text("endpoint_id")
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: "cascade" }),
    url: text("url").notNull(),
    status: smallint("status").notNull(),
    /** 0 when no answer came (refused, timed out, not allowed). */
    responseStatusCode: integer("response_status_code").notNull(),
    response: text("response").notNull().default(""),
    responseDurationMs: integer("response_duration_ms").notNull(),
    /** 0 scheduled (the first try and retries), 1 manual (a resend or recovery). */
    triggerType: smallint("trigger_type").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull(),
  },
  (t) => [
    index("webhook_attempts_endpoint_idx").on(t.endpointId, t.createdAt),
    index("webhook_attempts_message_idx").on(t.messageId, t.createdAt),
  ],
);

export type WebhookEndpointRow = typeof webhookEndpoints.$inferSelect;
export type WebhookMessageRow = typeof webhookMessages.$inferSelect;
export type WebhookAttemptRow = typeof webhookAttempts.$inferSelect;

/** Attempt statuses, Svix's numbers. */
export const ATTEMPT_STATUS = { succeeded: 0, pending: 1, failed: 2, sending: 3 } as const;
