/**
 * The per-process caches of hot reads: projects, valid project keys, users,
 * teams, owner-team memberships, live sessions and permissions. Only positive results are kept
 * (a miss always asks the database), entries are bounded in number, and a
 * TTL bounds staleness should an invalidation ever be missed.
 */
import { LRUCache } from "lru-cache";
import type { PermissionGraph } from "../domain/permissions/graph.ts";
import type { UserRecord } from "../domain/users/record.ts";
import type { MaybePromise } from "../lib/maybe-async.ts";
import type { CacheBus } from "./bus.ts";
import type { Tenancy } from "../db/tenancy.ts";
import type { TeamRow } from "../db/schema/index.ts";
import type { ProjectRow } from "../domain/projects/project-row.ts";
import type { CacheEvent } from "./cache-event.ts";

const TTL_MILLIS = 60_000;

export interface CachedSession extends Tenancy {
  id: string;
  userId: string;
  expiresAt: Date | null;
}

export interface CachedGrants {
  projectId: string;
  teamId: string;
  permissionIds: readonly string[];
}

export interface CachedProjectGrants {
  projectId: string;
  permissionIds: readonly string[];
}

export interface CachedTeamIds {
  projectId: string;
  teamIds: readonly string[];
}

export interface CachedKey {
  projectId: string;
  expiresAt: Date | null;
}

/**
 * At most `max` entries. Bounded by size (one per entry) rather than lru-cache's `max`, which allocates and
 * zero-fills its arrays for every entry up front: with TTLs, ten caches of up to 100,000 entries cost ~25 MB
 * of heap and most of a second of CPU at every start, for caches that fill slowly or never.
 */
function lru<V extends object>(max: number) {
  return new LRUCache<string, V>({ maxSize: max, sizeCalculation: () => 1, ttl: TTL_MILLIS, updateAgeOnGet: false });
}

export class Caches {
  readonly projects = lru<ProjectRow>(10_000);
  /** `${projectId}:${kind}:${sha256}` (publishable keys: `…:as-sent:${key}`) → the key's expiry. */
  readonly projectKeys = lru<CachedKey>(20_000);
  readonly users = lru<UserRecord>(100_000);
  /** `${teamId}:${userId}` → member. */
  readonly memberships = lru<{ teamId: string }>(20_000);
  /** refresh-token digest → session. */
  readonly sessions = lru<CachedSession>(100_000);
  /** `${projectId}:${branchId}` → the project's permission definitions. */
  readonly permissionGraphs = lru<PermissionGraph>(10_000);
  /** `${teamId}:${userId}` → the permissions granted directly to that member (members only). */
  readonly teamGrants = lru<CachedGrants>(100_000);
  /** user id → the project permissions granted directly to that user. */
  readonly projectGrants = lru<CachedProjectGrants>(100_000);
  /** user id → the ids of the teams the user belongs to, oldest membership first. */
  readonly userTeams = lru<CachedTeamIds>(100_000);
  /** team id → the team's row. */
  readonly teams = lru<TeamRow>(100_000);

  constructor(private readonly bus: CacheBus) {
    bus.onEvent((event) => this.invalidate(event));
  }

  /**
   * Returns the cached value at once (a hit costs no promise: see
   * lib/maybe-async.ts), or loads it; the result is cached only when no
   * invalidation happened while loading (else it may predate a write).
   */
  load<V extends object>(cache: LRUCache<string, V>, key: string, loader: () => Promise<V | null>): MaybePromise<V | null> {
    const hit = cache.get(key);
    return hit !== undefined ? hit : this.loadMissing(cache, key, loader);
  }

  /**
   * `load` for many keys of one cache: the hits at once, the misses with one
   * call of `loader` (which answers each missing key, null for none).
   */
  loadMany<V extends object>(
    cache: LRUCache<string, V>,
    keys: readonly string[],
    loader: (missing: string[]) => Promise<Map<string, V | null>>,
  ): MaybePromise<Map<string, V | null>> {
    const found = new Map<string, V | null>();
    const missing: string[] = [];
    for (const key of keys) {
      const hit = cache.get(key);
      if (hit === undefined) missing.push(key);
      else found.set(key, hit);
    }
    return missing.length === 0 ? found : this.loadManyMissing(cache, found, missing, loader);
  }

  private async loadManyMissing<V extends object>(
    cache: LRUCache<string, V>,
    found: Map<string, V | null>,
    missing: string[],
    loader: (missing: string[]) => Promise<Map<string, V | null>>,
  ): Promise<Map<string, V | null>> {
    const generation = this.bus.generation;
    const loaded = await loader(missing);
    const fresh = this.bus.generation === generation;
    for (const key of missing) {
      const value = loaded.get(key) ?? null;
      if (value !== null && fresh) cache.set(key, value);
      found.set(key, value);
    }
    return found;
  }

  private async loadMissing<V extends object>(cache: LRUCache<string, V>, key: string, loader: () => Promise<V | null>): Promise<V | null> {
    const generation = this.bus.generation;
    const value = await loader();
    if (value !== null && this.bus.generation === generation) cache.set(key, value);
    return value;
  }

  private invalidate(event: CacheEvent): void {
    switch (event.t) {
      case "project":
        this.projects.delete(event.id);
        dropWhere(this.projectKeys, (v) => v.projectId === event.id);
        dropWhere(this.users, (v) => v.projectId === event.id);
        dropWhere(this.sessions, (v) => v.projectId === event.id);
        dropByPrefix(this.permissionGraphs, `${event.id}:`);
        dropWhere(this.projectGrants, (v) => v.projectId === event.id);
        // Rewriting many grants at once (a permission renamed or deleted) announces the project.
        dropWhere(this.teamGrants, (v) => v.projectId === event.id);
        dropWhere(this.userTeams, (v) => v.projectId === event.id);
        dropWhere(this.teams, (v) => v.projectId === event.id);
        break;
      case "permission-definitions":
        dropByPrefix(this.permissionGraphs, `${event.id}:`);
        break;
      case "team-member":
        this.memberships.delete(`${event.team}:${event.user}`);
        this.teamGrants.delete(`${event.team}:${event.user}`);
        this.userTeams.delete(event.user);
        break;
      case "project-grants":
        this.projectGrants.delete(event.user);
        break;
      case "project-keys":
        dropWhere(this.projectKeys, (v) => v.projectId === event.id);
        break;
      case "user":
        this.users.delete(event.id);
        dropWhere(this.sessions, (v) => v.userId === event.id);
        dropWhere(this.memberships, (_, key) => key.endsWith(`:${event.id}`));
        // A deleted user's grants and teams go with their memberships (team-member events);
        // their other entries can no longer be reached: the user is not found first.
        this.projectGrants.delete(event.id);
        this.userTeams.delete(event.id);
        break;
      case "team":
        this.teams.delete(event.id);
        dropWhere(this.users, (v) => v.selectedTeamId === event.id);
        dropWhere(this.memberships, (v) => v.teamId === event.id);
        dropWhere(this.teamGrants, (v) => v.teamId === event.id);
        dropWhere(this.userTeams, (v) => v.teamIds.includes(event.id));
        break;
      case "session":
        dropWhere(this.sessions, (v) => v.id === event.id);
        break;
      case "all":
        this.projects.clear();
        this.projectKeys.clear();
        this.users.clear();
        this.memberships.clear();
        this.sessions.clear();
        this.permissionGraphs.clear();
        this.teamGrants.clear();
        this.projectGrants.clear();
        this.userTeams.clear();
        this.teams.clear();
        break;
    }
  }
}

function dropByPrefix<V extends object>(cache: LRUCache<string, V>, prefix: string): void {
  for (const key of cache.keys()) if (key.startsWith(prefix)) cache.delete(key);
}

function dropWhere<V extends object>(cache: LRUCache<string, V>, predicate: (value: V, key: string) => boolean): void {
  for (const [key, value] of cache.entries()) if (predicate(value, key)) cache.delete(key);
}
