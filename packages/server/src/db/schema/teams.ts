import { sql } from "drizzle-orm";
import { index, jsonb, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { tenancyColumns } from "./projects.ts";
import { users } from "./users.ts";

export const teams = pgTable(
  "teams",
  {
    id: uuid("id")
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    ...tenancyColumns(),
    displayName: text("display_name").notNull(),
    profileImageUrl: text("profile_image_url"),
    clientMetadata: jsonb("client_metadata"),
    clientReadOnlyMetadata: jsonb("client_read_only_metadata"),
    serverMetadata: jsonb("server_metadata"),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [index("teams_project_idx").on(t.projectId, t.branchId, t.createdAt)],
);

/** A membership also carries the member's team profile (name and image per team). */
export const teamMembers = pgTable(
  "team_members",
  {
    ...tenancyColumns(),
    teamId: uuid("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    displayName: text("display_name"),
    profileImageUrl: text("profile_image_url"),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.teamId, t.userId] }),
    index("team_members_user_idx").on(t.userId),
    // A server listing every member profile of the project, oldest membership first.
    index("team_members_project_idx").on(t.projectId, t.branchId, t.createdAt),
  ],
);

export type TeamRow = typeof teams.$inferSelect;

export type TeamMemberRow = typeof teamMembers.$inferSelect;
