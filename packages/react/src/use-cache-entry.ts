/**
 * Reading an SDK cache entry in React: every hook of this package is one of
 * these over an entry the app (or a user object) hands out, e.g.
 *
 * ```ts
 * export const useProject = () => useCacheEntry(useStackApp()._projectEntry());
 * ```
 *
 * The entry is shared with the SDK's own `get*`/`list*` calls; writes made
 * through the SDK invalidate it, and the component re-renders with the new value.
 */
import type { CacheEntry, CacheSnapshot } from "@latchkey/js";
import { use, useSyncExternalStore } from "react";

/** The entry's value: suspends until the first one arrives, and throws a failed read's error to the nearest error boundary. */
export function useCacheEntry<T>(entry: CacheEntry<T>): T {
  return valueOf(entry, useCacheSnapshot(entry));
}

/**
 * The entry's snapshot, without suspending or throwing: for components that
 * show their own loading and error states. On the server it is what the
 * browser sees first unless `serverSnapshot` says otherwise.
 */
export function useCacheSnapshot<T>(entry: CacheEntry<T>, serverSnapshot?: () => CacheSnapshot<T>): CacheSnapshot<T> {
  return useSyncExternalStore(entry.subscribe, entry.getSnapshot, serverSnapshot ?? entry.getSnapshot);
}

export function valueOf<T>(entry: CacheEntry<T>, snapshot: CacheSnapshot<T>): T {
  let current = snapshot;
  // React expects a render that once suspended in use() to meet the same promise, settled, when it resumes.
  if (current.status !== "pending") use(entry.arrival);
  while (current.status === "pending") {
    // The same promise until a value or an error arrives, as use() expects.
    use(current.promise);
    current = entry.getSnapshot();
  }
  if (current.status === "error") throw current.error;
  return current.value;
}
