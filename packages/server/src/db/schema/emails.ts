import { sql } from "drizzle-orm";
import { boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { projects, tenancyColumns } from "./projects.ts";
import { users } from "./users.ts";

/**
 * Every e-mail the platform sends, from queued to sent (or failed, with the
 * error): the queue and the record in one table.
 */
export const sentEmails = pgTable(
  "sent_emails",
  {
    id: uuid("id")
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
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

const projectScoped = {
  projectId: text("project_id")
    .notNull()
    .references(() => projects.id, { onDelete: "cascade" }),
  createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
};

/**
 * How a template or draft is framed: `themeId` names a theme; null with
 * `noTheme` false means the project's selected theme; `noTheme` true sends
 * it unframed (on the wire: theme_id uuid | false | absent; see
 * @latchkey/shared api/email-admin.ts).
 */
const themeChoice = {
  themeId: uuid("theme_id"),
  noTheme: boolean("no_theme").notNull().default(false),
};

/** E-mail themes: TSX that frames every message (header, footer, unsubscribe link). */
export const emailThemes = pgTable(
  "email_themes",
  {
    id: uuid("id").notNull(),
    ...projectScoped,
    displayName: text("display_name").notNull(),
    tsxSource: text("tsx_source").notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.id] })],
);

/** E-mail templates: TSX for one kind of message (the defaults have fixed ids per kind). */
export const emailTemplates = pgTable(
  "email_templates",
  {
    id: uuid("id").notNull(),
    ...projectScoped,
    displayName: text("display_name").notNull(),
    tsxSource: text("tsx_source").notNull(),
    ...themeChoice,
  },
  (t) => [primaryKey({ columns: [t.projectId, t.id] })],
);

/** E-mail drafts: one-off messages an admin writes, then sends. */
export const emailDrafts = pgTable(
  "email_drafts",
  {
    id: uuid("id")
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    ...projectScoped,
    displayName: text("display_name").notNull(),
    tsxSource: text("tsx_source").notNull(),
    ...themeChoice,
    sentAt: timestamp("sent_at", { withTimezone: true, mode: "date" }),
  },
  (t) => [index("email_drafts_project_idx").on(t.projectId, t.createdAt)],
);

/** A user's choice for a notification category; no row means the category's default (enabled). */
export const notificationPreferences = pgTable(
  "notification_preferences",
  {
    ...tenancyColumns(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    categoryId: uuid("category_id").notNull(),
    enabled: boolean("enabled").notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.categoryId] }), index("notification_preferences_project_idx").on(t.projectId, t.categoryId)],
);

export type SentEmailRow = typeof sentEmails.$inferSelect;

export type ThemeRow = typeof emailThemes.$inferSelect;

export type TemplateRow = typeof emailTemplates.$inferSelect;

export type DraftRow = typeof emailDrafts.$inferSelect;
