/**
 * The per-process caches of hot reads: projects, valid project keys, users,
 * teams, owner-team memberships, live sessions, permissions and user and team API keys. Only positive results are kept
 * (a miss always asks the database), but for sessions found ended, which can never come back; entries are bounded in
 * number, and a TTL bounds staleness should an invalidation ever be missed.
 */
import type { PermissionGraph } from "../domain/permissions/graph.ts";
import type { UserRecord } from "../domain/users/record.ts";
import type { MaybePromise } from "../lib/maybe-async.ts";
import type { CacheBus } from "./bus.ts";
import type { Tenancy } from "../db/tenancy.ts";
import type { TeamRow } from "../db/schema/index.ts";
import type { ProjectRow } from "../domain/projects/project-row.ts";
import type { UserTeamApiKeyRow } from "../capabilities/user-team-api-keys/schema.ts";
import type { CacheEvent } from "./cache-events.ts";
import { IndexedLru, type OwnersOf } from "./indexed-lru.ts";

const TTL_MILLIS = 60_000;

export interface CachedSession extends Tenancy {
  id: string;
  userId: string;
  expiresAt: Date | null;
}

/**
 * Whether the session an access token names still stands: its owners and expiry while it does, or
 * ENDED_SESSION once it was found gone (signed out, revoked, its user or project deleted).
 */
export type SessionLiveness =
  { ended: false; projectId: string; branchId: string; userId: string; expiresAtMillis: number | null } | { ended: true };

/** One shared object for every ended session: remembering one costs no allocation. */
export const ENDED_SESSION: SessionLiveness = Object.freeze({ ended: true });

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

/** What loading needs of a cache. */
type Entries<V> = Pick<IndexedLru<V & object, never>, "get" | "set">;

/** The owners most caches are dropped by: the project of the value. */
const byProject = { project: (value: { projectId: string }) => value.projectId };

function lru<V extends object, I extends string = never>(max: number, indexes: { readonly [name in I]: OwnersOf<V> }) {
  return new IndexedLru<V, I>({ max, ttlMillis: TTL_MILLIS, indexes });
}

/** The ids a key of `${first}:${rest}` begins with, before each colon: what dropping by prefix `${id}:` matched. */
function prefixesOf(key: string): string[] {
  const prefixes: string[] = [];
  for (let colon = key.indexOf(":"); colon !== -1; colon = key.indexOf(":", colon + 1)) prefixes.push(key.slice(0, colon));
  return prefixes;
}

/** The user of a `${teamId}:${userId}` key. */
function memberOf(value: { teamId: string }, key: string): string {
  return key.slice(value.teamId.length + 1);
}

export class Caches {
  readonly projects = lru<ProjectRow>(10_000, {});
  /** `${projectId}:${kind}:${sha256}` (publishable keys: `…:as-sent:${key}`) → the key's expiry. */
  readonly projectKeys = lru<CachedKey, "project">(20_000, byProject);
  readonly users = lru<UserRecord, "project" | "selectedTeam">(100_000, {
    ...byProject,
    selectedTeam: (user) => user.selectedTeamId,
  });
  /** `${teamId}:${userId}` → member. */
  readonly memberships = lru<{ teamId: string }, "team" | "user">(20_000, { team: (m) => m.teamId, user: memberOf });
  /** refresh-token digest → session. */
  readonly sessions = lru<CachedSession, "project" | "user" | "session">(100_000, {
    ...byProject,
    user: (session) => session.userId,
    session: (session) => session.id,
  });
  /**
   * session id → whether the session stands, asked by every request with an access token. Ended sessions are
   * remembered too, so a flood of requests with a revoked session's token reads the database once.
   */
  readonly liveSessions = lru<SessionLiveness, "project" | "user">(100_000, {
    project: (session) => (session.ended ? null : session.projectId),
    user: (session) => (session.ended ? null : session.userId),
  });
  /** How many times `liveSessions` had to ask the database (a miss). */
  sessionLivenessReads = 0;
  /** `${projectId}:${branchId}` → the project's permission definitions. */
  readonly permissionGraphs = lru<PermissionGraph, "project">(10_000, { project: (_, key) => prefixesOf(key) });
  /** `${teamId}:${userId}` → the permissions granted directly to that member (members only). */
  readonly teamGrants = lru<CachedGrants, "project" | "team">(100_000, { ...byProject, team: (grants) => grants.teamId });
  /** user id → the project permissions granted directly to that user. */
  readonly projectGrants = lru<CachedProjectGrants, "project">(100_000, byProject);
  /** user id → the ids of the teams the user belongs to, oldest membership first. */
  readonly userTeams = lru<CachedTeamIds, "project" | "team">(100_000, { ...byProject, team: (teams) => teams.teamIds });
  /** team id → the team's row. */
  readonly teams = lru<TeamRow, "project">(100_000, byProject);
  /**
   * `${projectId}:${branchId}:${keyId}` → a user or team API key, whatever its state (the check decides,
   * capabilities/user-team-api-keys/domain/check.ts). It goes with its owner, and with any change to it.
   */
  readonly apiKeys = lru<UserTeamApiKeyRow, "project" | "key" | "user" | "team">(100_000, {
    ...byProject,
    key: (key) => key.id,
    user: (key) => key.userId,
    team: (key) => key.teamId,
  });

  constructor(private readonly bus: CacheBus) {
    bus.onEvent((event) => this.invalidate(event));
  }

  /**
   * Returns the cached value at once (a hit costs no promise: see
   * lib/maybe-async.ts), or loads it; the result is cached only when no
   * invalidation happened while loading (else it may predate a write).
   */
  load<V extends object>(cache: Entries<V>, key: string, loader: () => Promise<V | null>): MaybePromise<V | null> {
    const hit = cache.get(key);
    return hit !== undefined ? hit : this.loadMissing(cache, key, loader);
  }

  /**
   * `load` for many keys of one cache: the hits at once, the misses with one
   * call of `loader` (which answers each missing key, null for none).
   */
  loadMany<V extends object>(
    cache: Entries<V>,
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

  /**
   * `load` for a value whose absence is final (an ended session never comes back): absence is cached as
   * `absent`, even when an invalidation happened while loading, since no write can undo it. Concurrent misses
   * of one key share one load, so a burst of requests for something absent reads it once.
   */
  loadFinal<V extends object>(cache: Entries<V>, key: string, loader: () => Promise<V | null>, absent: V): MaybePromise<V> {
    const hit = cache.get(key);
    if (hit !== undefined) return hit;
    let loads = this.finalLoads.get(cache) as Map<string, Promise<V>> | undefined;
    if (loads === undefined) this.finalLoads.set(cache, (loads = new Map()));
    let loading = loads.get(key);
    if (loading === undefined) {
      const inFlight = loads;
      loading = this.loadFinalMissing(cache, key, loader, absent).finally(() => inFlight.delete(key));
      loads.set(key, loading);
    }
    return loading;
  }

  /** The loads `loadFinal` has under way, by cache and key. */
  private readonly finalLoads = new WeakMap<object, Map<string, Promise<unknown>>>();

  private async loadFinalMissing<V extends object>(cache: Entries<V>, key: string, loader: () => Promise<V | null>, absent: V): Promise<V> {
    const generation = this.bus.generation;
    const value = await loader();
    if (value === null) {
      cache.set(key, absent);
      return absent;
    }
    if (this.bus.generation === generation) cache.set(key, value);
    return value;
  }

  private async loadManyMissing<V extends object>(
    cache: Entries<V>,
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

  private async loadMissing<V extends object>(cache: Entries<V>, key: string, loader: () => Promise<V | null>): Promise<V | null> {
    const generation = this.bus.generation;
    const value = await loader();
    if (value !== null && this.bus.generation === generation) cache.set(key, value);
    return value;
  }

  private invalidate(event: CacheEvent): void {
    switch (event.t) {
      case "project":
        this.projects.delete(event.id);
        this.projectKeys.deleteOwnedBy("project", event.id);
        this.users.deleteOwnedBy("project", event.id);
        this.sessions.deleteOwnedBy("project", event.id);
        // A deleted project's sessions go with it; they are found ended at their next use.
        this.liveSessions.deleteOwnedBy("project", event.id);
        this.permissionGraphs.deleteOwnedBy("project", event.id);
        this.projectGrants.deleteOwnedBy("project", event.id);
        // Rewriting many grants at once (a permission renamed or deleted) announces the project.
        this.teamGrants.deleteOwnedBy("project", event.id);
        this.userTeams.deleteOwnedBy("project", event.id);
        this.teams.deleteOwnedBy("project", event.id);
        this.apiKeys.deleteOwnedBy("project", event.id);
        break;
      case "permission-definitions":
        this.permissionGraphs.deleteOwnedBy("project", event.id);
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
        this.projectKeys.deleteOwnedBy("project", event.id);
        break;
      case "user":
        this.users.delete(event.id);
        this.sessions.deleteOwnedBy("user", event.id);
        this.liveSessions.deleteOwnedBy("user", event.id);
        this.memberships.deleteOwnedBy("user", event.id);
        // A deleted user's grants and teams go with their memberships (team-member events);
        // their other entries can no longer be reached: the user is not found first.
        this.projectGrants.delete(event.id);
        this.userTeams.delete(event.id);
        // A deleted user's keys go with the row; a changed user's are reloaded at the next check.
        this.apiKeys.deleteOwnedBy("user", event.id);
        break;
      case "team":
        this.teams.delete(event.id);
        this.users.deleteOwnedBy("selectedTeam", event.id);
        this.memberships.deleteOwnedBy("team", event.id);
        this.teamGrants.deleteOwnedBy("team", event.id);
        this.userTeams.deleteOwnedBy("team", event.id);
        this.apiKeys.deleteOwnedBy("team", event.id);
        break;
      case "session":
        this.sessions.deleteOwnedBy("session", event.id);
        // Known ended at once, without a read, where the session was in use; elsewhere the next use reads it.
        if (this.liveSessions.has(event.id)) this.liveSessions.set(event.id, ENDED_SESSION);
        break;
      case "api-key":
        this.apiKeys.deleteOwnedBy("key", event.id);
        break;
      case "all":
        this.projects.clear();
        this.projectKeys.clear();
        this.users.clear();
        this.memberships.clear();
        this.sessions.clear();
        this.liveSessions.clear();
        this.permissionGraphs.clear();
        this.teamGrants.clear();
        this.projectGrants.clear();
        this.userTeams.clear();
        this.teams.clear();
        this.apiKeys.clear();
        break;
    }
  }
}
