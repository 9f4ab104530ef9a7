/**
 * A project as the server uses it: its row with its main branch's config rendered. Apart from projects.ts (which loads
 * it) so that the caches and the stores that take a project need not import the store that loads one.
 */
import type { RenderedConfig } from "@latchkey/shared";
import type { projects } from "../../db/schema/index.ts";
import type { ProjectConfig } from "./config.ts";

export type ProjectRow = Omit<typeof projects.$inferSelect, "legacyConfig"> & {
  /** The main branch's rendered config. */
  rendered: RenderedConfig;
  /** The same settings in the admin API's older shape (config/legacy.ts). */
  config: ProjectConfig;
};
