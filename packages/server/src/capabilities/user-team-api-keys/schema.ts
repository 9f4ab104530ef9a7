import { sql } from "drizzle-orm";
import { boolean, check, index, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { tenancyColumns } from "../../db/schema/projects.ts";
import { teams } from "../../db/schema/teams.ts";
import { users } from "../../db/schema/users.ts";

/**
 * The API keys of a project's users and teams: each belongs to exactly one
 * user or one team, and goes with it (the cascades). The key itself is never
 * stored: only the SHA-256 digest of the whole key string (a key carries 225
 * random bits, so no salt or slow hash is needed) and its last four
 * characters, to show. The key string carries the row's id (domain/key-string.ts),
 * so a check reads the row by its primary key and compares digests.
 */
export const userTeamApiKeys = pgTable(
  "user_team_api_keys",
  {
    id: uuid("id")
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    ...tenancyColumns(),
    type: text("type", { enum: ["user", "team"] }).notNull(),
    userId: uuid("user_id").references(() => users.id, { onDelete: "cascade" }),
    teamId: uuid("team_id").references(() => teams.id, { onDelete: "cascade" }),
    description: text("description").notNull(),
    isPublic: boolean("is_public").notNull().default(false),
    valueDigest: text("value_digest").notNull(),
    lastFour: text("last_four").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    /** Null: never expires. */
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }),
    /** Set once, by the first revocation; never cleared. */
    manuallyRevokedAt: timestamp("manually_revoked_at", { withTimezone: true, mode: "date" }),
    /** When a check last accepted it, written behind and at most once a minute (domain/usage.ts). */
    lastUsedAt: timestamp("last_used_at", { withTimezone: true, mode: "date" }),
  },
  (t) => [
    check(
      "user_team_api_keys_one_owner",
      sql`(${t.type} = 'user' and ${t.userId} is not null and ${t.teamId} is null) or (${t.type} = 'team' and ${t.teamId} is not null and ${t.userId} is null)`,
    ),
    // The lists: one owner's keys, newest first. Each also serves its owner's cascade.
    index("user_team_api_keys_user_idx").on(t.userId, t.createdAt),
    index("user_team_api_keys_team_idx").on(t.teamId, t.createdAt),
    // The project's cascade.
    index("user_team_api_keys_project_idx").on(t.projectId, t.branchId),
  ],
);

export type UserTeamApiKeyRow = typeof userTeamApiKeys.$inferSelect;
