/**
 * Config overrides as their writers wrote them, never the
 * rendered document: the project level per project, the branch and
 * environment levels per project and branch, with the branch's source.
 * Stored as `json`, not `jsonb`, to keep the keys in the order written: a
 * record's entries (trusted domains, providers) keep their order.
 */
import { sql } from "drizzle-orm";
import { json, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import type { ConfigOverride, ConfigSourceJson } from "@latchkey/shared";
import { projects } from "./projects.ts";

export const projectConfigOverrides = pgTable("project_config_overrides", {
  projectId: text("project_id")
    .primaryKey()
    .references(() => projects.id, { onDelete: "cascade" }),
  override: json("override").$type<ConfigOverride>().notNull().default({}),
});

export const branchConfigOverrides = pgTable(
  "branch_config_overrides",
  {
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    branchId: text("branch_id").notNull(),
    branchOverride: json("branch_override").$type<ConfigOverride>().notNull().default({}),
    environmentOverride: json("environment_override").$type<ConfigOverride>().notNull().default({}),
    source: json("source")
      .$type<ConfigSourceJson>()
      .notNull()
      .default(sql`'{"type":"unlinked"}'::json`),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.branchId] })],
);
