/** Applying an admin's config patch (the request bodies themselves are in @latchkey/shared). */
import type { ProjectConfigPatch } from "@latchkey/shared";
import type { ProjectConfig } from "./config.ts";

export type ConfigPatch = ProjectConfigPatch;

export function applyConfigPatch(config: ProjectConfig, patch: ConfigPatch | undefined): ProjectConfig {
  if (!patch) return config;
  const next = { ...config };
  for (const [key, value] of Object.entries(patch)) {
    if (value !== undefined) (next as Record<string, unknown>)[key] = value;
  }
  return next;
}
