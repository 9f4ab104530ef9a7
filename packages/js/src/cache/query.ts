/**
 * A named query over an app's cache: `get(...args)` for SDK methods, and
 * `entry(...args)` for hooks, both on the one entry of those arguments.
 *
 * Adding a cached read and its hook:
 *
 * ```ts
 * // In the app (packages/js): one line per query, the fetcher as before.
 * readonly #teams = new CachedQuery(this.cache, "teams", (session: Session) => this.fetchTeams(session));
 * listTeams() { return this.#teams.get(this.sessionFor()); }
 * _teamsEntry() { return this.#teams.entry(this.sessionFor()); }
 * // A write that changes the list invalidates it (or everything about the session):
 * this.cache.invalidateAbout(session);
 *
 * // In packages/react:
 * export const useTeams = () => useCacheEntry(useStackApp()._teamsEntry());
 * ```
 */
import type { CacheEntry } from "./entry.ts";
import type { CacheStore } from "./store.ts";

export class CachedQuery<Args extends readonly unknown[], T> {
  constructor(
    private readonly store: CacheStore,
    readonly name: string,
    private readonly fetcher: (...args: Args) => Promise<T>,
  ) {}

  entry(...args: Args): CacheEntry<T> {
    return this.store.entry(queryKey(this.name, args), args, () => this.fetcher(...args));
  }

  get(...args: Args): Promise<T> {
    return this.entry(...args).get();
  }

  /** Reads the entry of these arguments again (if there is one). */
  invalidate(...args: Args): void {
    const key = queryKey(this.name, args);
    this.store.invalidateWhere((entry) => entry.key === key);
  }

  /** Reads every entry of this query again (whatever its arguments). */
  invalidateAll(): void {
    const prefix = `${this.name}(`;
    this.store.invalidateWhere((entry) => entry.key.startsWith(prefix));
  }
}

const objectIds = new WeakMap<object, number>();
let nextObjectId = 0;

/** Objects (e.g. a session) are told apart by identity, other values by their JSON. */
export function queryKey(name: string, args: readonly unknown[]): string {
  const parts = args.map((arg) => {
    if ((typeof arg === "object" && arg !== null) || typeof arg === "function") {
      let id = objectIds.get(arg);
      if (id === undefined) objectIds.set(arg, (id = nextObjectId++));
      return `#${id}`;
    }
    return arg === undefined ? "undefined" : JSON.stringify(arg);
  });
  return `${name}(${parts.join(",")})`;
}
