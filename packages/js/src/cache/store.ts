/**
 * Every cached query of one app, one entry per query (a fetcher and its
 * arguments). Entries nobody subscribes to are dropped `dropAfterMs` after
 * the last subscriber left (or after they were made), so a component that
 * mounts again soon reuses the entry; reads of one entry run one at a time,
 * `throttleMs` apart.
 */
import { SDK_CACHE_DROP_AFTER_MILLIS, SDK_CACHE_THROTTLE_MILLIS } from "@latchkey/shared/constants";
import { CacheEntry, type CacheTiming } from "./entry.ts";

export const DEFAULT_CACHE_TIMING: CacheTiming = { dropAfterMs: SDK_CACHE_DROP_AFTER_MILLIS, throttleMs: SDK_CACHE_THROTTLE_MILLIS };

export class CacheStore {
  readonly #entries = new Map<string, CacheEntry<unknown>>();

  constructor(private readonly timing: CacheTiming = DEFAULT_CACHE_TIMING) {}

  /** The entry of `key`, made with `fetcher` when there is none. */
  entry<T>(key: string, args: readonly unknown[], fetcher: () => Promise<T>): CacheEntry<T> {
    const found = this.#entries.get(key);
    if (found) return found as CacheEntry<T>;
    const made = new CacheEntry<T>(
      key,
      args,
      fetcher,
      this.timing,
      (entry) => {
        if (this.#entries.get(entry.key) === (entry as unknown)) this.#entries.delete(entry.key);
      },
      (entry) => {
        // Subscribed to after it was dropped (e.g. a render that took long): it is the entry again unless one was made since.
        if (!this.#entries.has(entry.key)) this.#entries.set(entry.key, entry as unknown as CacheEntry<unknown>);
        // While dropped, no reset or invalidation reached it (another user may have signed in): it is read anew before shown.
        entry.reset();
      },
    );
    this.#entries.set(key, made as unknown as CacheEntry<unknown>);
    return made;
  }

  /** Whether `key` has an entry (kept or not yet dropped). */
  has(key: string): boolean {
    return this.#entries.has(key);
  }

  /** Invalidates every entry whose query arguments include `arg` (e.g. one session). */
  invalidateAbout(arg: unknown): void {
    for (const entry of [...this.#entries.values()]) if (entry.args.includes(arg)) entry.invalidate();
  }

  /** Resets every entry `match` accepts: they show nothing until read again. */
  resetWhere(match: (entry: CacheEntry<unknown>) => boolean): void {
    for (const entry of [...this.#entries.values()]) if (match(entry)) entry.reset();
  }

  /** Invalidates every entry `match` accepts. */
  invalidateWhere(match: (entry: CacheEntry<unknown>) => boolean): void {
    for (const entry of [...this.#entries.values()]) if (match(entry)) entry.invalidate();
  }
}
