export { CacheEntry, type CacheSnapshot, type CacheTiming } from "./entry.ts";
export { CacheStore, DEFAULT_CACHE_TIMING } from "./store.ts";
export { CachedQuery, queryKey } from "./query.ts";
