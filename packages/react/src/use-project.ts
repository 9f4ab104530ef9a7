/** The project's public settings, read once per app and shared (the SDK's cache). */
import type { Project } from "@latchkey/js";
import { useCacheEntry, useCacheSnapshot } from "./use-cache-entry.ts";
import { useStackApp } from "./provider.tsx";

/** Suspends on the first read. */
export function useProject(): Project {
  return useCacheEntry(useStackApp()._projectEntry());
}

const NOT_YET = { status: "pending", promise: new Promise<void>(() => {}) } as const;

/**
 * Null until the settings have arrived (and on the server), without
 * suspending: for forms that render at once and add options when they know.
 */
export function useProjectOnceLoaded(): Project | null {
  const snapshot = useCacheSnapshot(useStackApp()._projectEntry(), () => NOT_YET);
  return snapshot.status === "ok" ? snapshot.value : null;
}
