import { foreignKey, index, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { tenancyColumns } from "./projects.ts";
import { teamMembers } from "./teams.ts";
import { users } from "./users.ts";

/**
 * A project's own permission definitions, team- or project-scoped. Ids are
 * one namespace per project and branch: an id names one definition, whatever
 * its scope. The six system team permissions (`$…`) are not stored: every
 * project has them (domain/permissions/system.ts).
 */
export const permissionDefinitions = pgTable(
  "permission_definitions",
  {
    ...tenancyColumns(),
    id: text("id").notNull(),
    scope: text("scope", { enum: ["team", "project"] }).notNull(),
    description: text("description"),
    /** Ids of the permissions this one grants too (a graph: acyclic, checked on write). */
    containedPermissionIds: text("contained_permission_ids").array().notNull().default([]),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.branchId, t.id] })],
);

/** A permission granted to a member in a team; it goes with the membership. */
export const teamPermissionGrants = pgTable(
  "team_permission_grants",
  {
    ...tenancyColumns(),
    teamId: uuid("team_id").notNull(),
    userId: uuid("user_id").notNull(),
    permissionId: text("permission_id").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.teamId, t.userId, t.permissionId] }),
    // Named: the generated name is longer than PostgreSQL's 63-character limit.
    foreignKey({
      name: "team_permission_grants_member_fk",
      columns: [t.teamId, t.userId],
      foreignColumns: [teamMembers.teamId, teamMembers.userId],
    }).onDelete("cascade"),
    index("team_permission_grants_project_permission_idx").on(t.projectId, t.branchId, t.permissionId),
  ],
);

/** A project-wide permission granted to a user. */
export const projectPermissionGrants = pgTable(
  "project_permission_grants",
  {
    ...tenancyColumns(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    permissionId: text("permission_id").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.permissionId] }),
    index("project_permission_grants_project_permission_idx").on(t.projectId, t.branchId, t.permissionId),
  ],
);
