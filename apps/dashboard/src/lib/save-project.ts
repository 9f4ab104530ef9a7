/**
 * Changing the current project's settings: the change goes to the server,
 * then the owner's project list is read again so every page (and every
 * control showing a setting) shows what the server now holds, never what was
 * asked for.
 */
import type { AdminProjectUpdateOptions } from "@latchkey/js";
import { useCallback } from "react";
import { useCurrentProject, useOwnedProjects } from "./owned-projects.tsx";
import { useAction, type Action } from "./use-action.ts";

export function useSaveProject(): Action<[update: AdminProjectUpdateOptions, done?: string]> {
  const project = useCurrentProject();
  const { refresh } = useOwnedProjects();
  const save = useCallback(
    async (update: AdminProjectUpdateOptions, done?: string) => {
      await project.update(update);
      await refresh();
      return done;
    },
    [project, refresh],
  );
  return useAction(save);
}
