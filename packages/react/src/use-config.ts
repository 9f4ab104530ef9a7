/**
 * A project's rendered config as React state, through the SDK's cache: shared
 * with `project.getConfig()`, and read again after every change of the
 * project's settings made through the SDK (`updateConfig`, `update`, …).
 * Suspends on the first read.
 */
import type { AdminProject, CompleteConfig, StackAdminApp } from "@latchkey/js";
import { useStackApp } from "./provider.tsx";
import { useCacheEntry } from "./use-cache-entry.ts";

/** The config of `project`, or of the admin app in <StackProvider> when none is given. */
export function useConfig(project?: AdminProject): CompleteConfig {
  const app = useStackApp<StackAdminApp>();
  return useCacheEntry(project ? project._configEntry() : adminApp(app)._configEntry());
}

function adminApp(app: StackAdminApp): StackAdminApp {
  if (typeof (app as Partial<StackAdminApp>)._configEntry !== "function") {
    throw new Error("useConfig() needs an admin app in <StackProvider>, or the project whose config to show.");
  }
  return app;
}
