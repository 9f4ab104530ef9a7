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

/** The save itself, throwing what the server said: for callers with their own action (e.g. a confirm dialog). */
export function useUpdateProject(): (update: AdminProjectUpdateOptions) => Promise<void> {
  const project = useCurrentProject();
  const { refresh } = useOwnedProjects();
  return useCallback(
    async (update: AdminProjectUpdateOptions) => {
      await project.update(update);
      await refresh();
    },
    [project, refresh],
  );
}

export function useSaveProject(): Action<[update: AdminProjectUpdateOptions, done?: string]> {
  const update = useUpdateProject();
  const save = useCallback(
    async (changes: AdminProjectUpdateOptions, done?: string) => {
      await update(changes);
      return done;
    },
    [update],
  );
  return useAction(save);
}
