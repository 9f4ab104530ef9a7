import { sql } from "drizzle-orm";
import { boolean, index, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import type { ProjectConfig } from "../../domain/projects/config.ts";

export const projects = pgTable(
  "projects",
  {
    id: text("id").primaryKey(),
    displayName: text("display_name").notNull(),
    description: text("description").notNull().default(""),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    isProductionMode: boolean("is_production_mode").notNull().default(false),
    /** A team of the internal project whose members administer this project. */
    ownerTeamId: uuid("owner_team_id"),
    logoUrl: text("logo_url"),
    logoFullUrl: text("logo_full_url"),
    logoDarkModeUrl: text("logo_dark_mode_url"),
    logoFullDarkModeUrl: text("logo_full_dark_mode_url"),
    /**
     * The whole config as versions before config overrides stored it; moved
     * into the environment override at start-up (domain/config/legacy-migration.ts)
     * and then cleared. Config is read from the overrides (config-overrides.ts).
     */
    legacyConfig: jsonb("config").$type<ProjectConfig>(),
  },
  (t) => [index("projects_owner_team_idx").on(t.ownerTeamId)],
);

/**
 * Internal API key sets: each row holds up to three keys, stored only as
 * SHA-256 digests (the keys carry 45 random characters, so no salt is needed),
 * plus their last four characters for display.
 */
export const projectApiKeys = pgTable(
  "project_api_keys",
  {
    id: uuid("id")
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    description: text("description").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }),
    manuallyRevokedAt: timestamp("manually_revoked_at", { withTimezone: true, mode: "date" }),
    publishableClientKeyHash: text("publishable_client_key_hash"),
    publishableClientKeyLastFour: text("publishable_client_key_last_four"),
    secretServerKeyHash: text("secret_server_key_hash"),
    secretServerKeyLastFour: text("secret_server_key_last_four"),
    superSecretAdminKeyHash: text("super_secret_admin_key_hash"),
    superSecretAdminKeyLastFour: text("super_secret_admin_key_last_four"),
  },
  (t) => [
    index("project_api_keys_project_idx").on(t.projectId, t.createdAt),
    index("project_api_keys_pck_idx").on(t.publishableClientKeyHash),
    index("project_api_keys_ssk_idx").on(t.secretServerKeyHash),
    index("project_api_keys_sak_idx").on(t.superSecretAdminKeyHash),
  ],
);

/**
 * The columns every table of project data starts with: which project (its
 * rows go with it) and which branch. Fresh builders per table.
 */
export function tenancyColumns() {
  return {
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    branchId: text("branch_id").notNull().default("main"),
  };
}

export type ProjectKeyRow = typeof projectApiKeys.$inferSelect;
