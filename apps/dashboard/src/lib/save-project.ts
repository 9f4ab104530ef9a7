/**
 * Changing the current project's settings: the change goes to the server,
 * then the owner's project list is read again so every page (and every
 * control showing a setting) shows what the server now holds, never what was
 * asked for.
 */
import type { AdminProjectUpdateOptions } from "@latchkey/js";
import { useCallback } from "react";
import { useCurrentProject, useOwnedProjects } from "./owned-projects.tsx";

/** The save itself, throwing what the server said. Settings that are config keys go through save-config.ts instead. */
export function useUpdateProject(): (update: AdminProjectUpdateOptions) => Promise<void> {
  const project = useCurrentProject();
  const { refresh } = useOwnedProjects();
  return useCallback(
    async (update: AdminProjectUpdateOptions) => {
      await project.update(update);
      await Promise.all([refresh(), project.getConfig()]);
    },
    [project, refresh],
  );
}
