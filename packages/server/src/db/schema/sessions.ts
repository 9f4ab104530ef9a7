import { sql } from "drizzle-orm";
import { boolean, index, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { tenancyColumns } from "./projects.ts";
import { users } from "./users.ts";

/** A session is a refresh token; only its SHA-256 digest is stored. */
export const sessions = pgTable(
  "sessions",
  {
    id: uuid("id")
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    ...tenancyColumns(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    refreshTokenHash: text("refresh_token_hash").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }),
    isImpersonation: boolean("is_impersonation").notNull().default(false),
    lastUsedIp: text("last_used_ip"),
  },
  (t) => [uniqueIndex("sessions_refresh_token_hash_unique").on(t.refreshTokenHash), index("sessions_user_idx").on(t.userId, t.createdAt)],
);

export type SessionRow = typeof sessions.$inferSelect;
