/**
 * Changing the current project's settings through its config: the keys are
 * written over the environment's override (`project.updateConfig`), then the
 * owner's project list is read again, so every page shows what the server now
 * holds. Keys may be dotted (`{ "auth.allowSignUp": false }`); writing a key
 * replaces everything stored under it.
 */
import type { ConfigOverride } from "@latchkey/js";
import { useCallback } from "react";
import { useCurrentProject, useOwnedProjects } from "./owned-projects.tsx";
import { useAction, type Action } from "./use-action.ts";

/** The save itself, throwing what the server said: for callers with their own action (e.g. a confirm dialog). */
export function useUpdateConfig(): (keys: ConfigOverride) => Promise<void> {
  const project = useCurrentProject();
  const { refresh } = useOwnedProjects();
  return useCallback(
    async (keys: ConfigOverride) => {
      await project.updateConfig(keys);
      // Both views of the settings are read again before the save counts as done: the project list and the config.
      await Promise.all([refresh(), project.getConfig()]);
    },
    [project, refresh],
  );
}

export function useSaveConfig(): Action<[keys: ConfigOverride, done?: string]> {
  const update = useUpdateConfig();
  const save = useCallback(
    async (keys: ConfigOverride, done?: string) => {
      await update(keys);
      return done;
    },
    [update],
  );
  return useAction(save);
}
