/**
 * An LRU cache that also finds its keys by owner: each index names, for a
 * value, the ids it belongs to (its project, its user, its teams…), so an
 * event about an owner drops that owner's entries without reading the rest
 * of the cache.
 *
 * The indexes are kept by the cache's own callbacks: a key is added to its
 * owners when a value is stored, and removed when that value leaves for any
 * reason (replaced, deleted, evicted, expired, cleared). So an index always
 * holds every key whose value names the owner: missing one would keep a stale
 * entry after the event that should have dropped it. Owners are computed from
 * the value and its key, which must therefore never be mutated once cached.
 */
import { LRUCache } from "lru-cache";

/** The owners of an entry in one index: none, one id, or several. */
export type OwnersOf<V> = (value: V, key: string) => string | readonly string[] | null | undefined;

export interface IndexedLruOptions<V, I extends string> {
  /** At most this many entries (the least recently used one leaves first). */
  max: number;
  ttlMillis: number;
  /** Milliseconds from any origin, for the TTL (tests give their own); lru-cache reads performance.now() by default. */
  now?: () => number;
  indexes: { readonly [name in I]: OwnersOf<V> };
}

export class IndexedLru<V extends object, I extends string = never> {
  readonly #lru: LRUCache<string, V>;
  readonly #owners: { readonly [name in I]: OwnersOf<V> };
  /** index name → owner → the keys whose value names that owner. */
  readonly #indexes = new Map<I, Map<string, Set<string>>>();

  constructor(options: IndexedLruOptions<V, I>) {
    this.#owners = options.indexes;
    for (const name of Object.keys(options.indexes) as I[]) this.#indexes.set(name, new Map());
    const indexed = this.#indexes.size > 0;
    // Bounded by size (one per entry) rather than lru-cache's `max`, which allocates and zero-fills its arrays
    // for every entry up front: with TTLs, ten caches of up to 100,000 entries cost ~25 MB of heap and most of
    // a second of CPU at every start, for caches that fill slowly or never.
    this.#lru = new LRUCache<string, V>({
      maxSize: options.max,
      sizeCalculation: () => 1,
      ttl: options.ttlMillis,
      updateAgeOnGet: false,
      ...(options.now ? { perf: { now: options.now }, ttlResolution: 0 } : {}),
      // A replaced value is disposed (reason "set") before the new one is inserted.
      onInsert: indexed ? (value, key) => this.#index(value, key) : undefined,
      dispose: indexed ? (value, key) => this.#unindex(value, key) : undefined,
    });
  }

  get size(): number {
    return this.#lru.size;
  }

  get(key: string): V | undefined {
    return this.#lru.get(key);
  }

  /** Whether `key` holds a live entry; unlike `get`, it leaves the entry's recency alone. */
  has(key: string): boolean {
    return this.#lru.has(key);
  }

  set(key: string, value: V): void {
    this.#lru.set(key, value);
  }

  delete(key: string): void {
    this.#lru.delete(key);
  }

  /** Deletes every entry `owner` owns in `index`; returns how many. */
  deleteOwnedBy(index: I, owner: string): number {
    const keys = this.#indexes.get(index)!.get(owner);
    if (!keys) return 0;
    // Each delete removes its key from this very set (dispose): iterate over a copy.
    const owned = [...keys];
    for (const key of owned) this.#lru.delete(key);
    return owned.length;
  }

  /** The keys `owner` owns in `index` (a copy). */
  keysOwnedBy(index: I, owner: string): string[] {
    return [...(this.#indexes.get(index)!.get(owner) ?? [])];
  }

  /** How many owners `index` knows of: it forgets an owner with its last entry. */
  ownerCount(index: I): number {
    return this.#indexes.get(index)!.size;
  }

  clear(): void {
    this.#lru.clear();
  }

  #index(value: V, key: string): void {
    for (const [name, byOwner] of this.#indexes) {
      for (const owner of ownerList(this.#owners[name](value, key))) {
        let keys = byOwner.get(owner);
        if (!keys) byOwner.set(owner, (keys = new Set()));
        keys.add(key);
      }
    }
  }

  #unindex(value: V, key: string): void {
    for (const [name, byOwner] of this.#indexes) {
      for (const owner of ownerList(this.#owners[name](value, key))) {
        const keys = byOwner.get(owner);
        if (!keys) continue;
        keys.delete(key);
        if (keys.size === 0) byOwner.delete(owner);
      }
    }
  }
}

function ownerList(owners: string | readonly string[] | null | undefined): readonly string[] {
  if (owners === null || owners === undefined) return [];
  return typeof owners === "string" ? [owners] : owners;
}
