/**
 * Reading permissions on the request path: the project's definitions (one
 * graph per project and branch) and each member's and user's direct grants,
 * all from the per-process caches when they are there (kept coherent by the
 * cache bus: cache/bus.ts), so a check or a recursive listing of a cached
 * member costs no query and no wait.
 */
import { and, asc, eq, inArray } from "drizzle-orm";
import type { DbOrTx } from "../../db/connect.ts";
import { permissionDefinitions, projectPermissionGrants, teamMembers, teamPermissionGrants } from "../../db/schema/index.ts";
import { mapMaybe, type MaybePromise } from "../../lib/maybe-async.ts";
import type { Services } from "../../services.ts";
import { membershipOf } from "../teams/teams.ts";
import { PermissionGraph, type PermissionScope } from "./graph.ts";
import { inTenancy, type Tenancy } from "../../db/tenancy.ts";

export async function readPermissionGraph(db: DbOrTx, scope: Tenancy): Promise<PermissionGraph> {
  const rows = await db.select().from(permissionDefinitions).where(inTenancy(permissionDefinitions, scope));
  return new PermissionGraph(
    rows.map((row) => ({
      id: row.id,
      scope: row.scope as PermissionScope,
      description: row.description,
      containedPermissionIds: row.containedPermissionIds,
    })),
  );
}

export function permissionGraph(services: Services, scope: Tenancy): MaybePromise<PermissionGraph> {
  return mapMaybe(
    services.caches.load(services.caches.permissionGraphs, `${scope.projectId}:${scope.branchId}`, () =>
      readPermissionGraph(services.db, scope),
    ),
    (graph) => graph!,
  );
}

/** The permissions granted directly to a member of a team; null when the user is not a member. */
export function memberGrants(services: Services, scope: Tenancy, teamId: string, userId: string): MaybePromise<readonly string[] | null> {
  return mapMaybe(
    services.caches.load(services.caches.teamGrants, `${teamId}:${userId}`, async () => {
      const ids = await readMemberGrants(services.db, scope, teamId, userId);
      return ids && { projectId: scope.projectId, teamId, permissionIds: ids };
    }),
    // The cache is keyed by team and user alone: another project's team is no team here.
    (entry) => (entry && entry.projectId === scope.projectId ? entry.permissionIds : null),
  );
}

/**
 * `memberGrants` of one user in several teams (team id → grants, null where
 * not a member): the cached ones at once, the rest with one query.
 */
export function memberGrantsInTeams(
  services: Services,
  scope: Tenancy,
  userId: string,
  teamIds: readonly string[],
): MaybePromise<Map<string, readonly string[] | null>> {
  const keys = teamIds.map((teamId) => `${teamId}:${userId}`);
  return mapMaybe(
    services.caches.loadMany(services.caches.teamGrants, keys, async (missing) => {
      const missingTeams = missing.map((key) => key.slice(0, key.indexOf(":")));
      const grants = await readMemberGrantsInTeams(services.db, scope, userId, missingTeams);
      return new Map(
        missingTeams.map((teamId) => {
          const ids = grants.get(teamId);
          return [`${teamId}:${userId}`, ids ? { projectId: scope.projectId, teamId, permissionIds: ids } : null];
        }),
      );
    }),
    (entries) =>
      new Map(
        teamIds.map((teamId) => {
          const entry = entries.get(`${teamId}:${userId}`);
          return [teamId, entry && entry.projectId === scope.projectId ? entry.permissionIds : null];
        }),
      ),
  );
}

async function readMemberGrantsInTeams(db: DbOrTx, scope: Tenancy, userId: string, teamIds: string[]): Promise<Map<string, string[]>> {
  const rows = await db
    .select({ teamId: teamMembers.teamId, permissionId: teamPermissionGrants.permissionId })
    .from(teamMembers)
    .leftJoin(
      teamPermissionGrants,
      and(eq(teamPermissionGrants.teamId, teamMembers.teamId), eq(teamPermissionGrants.userId, teamMembers.userId)),
    )
    .where(and(inTenancy(teamMembers, scope), eq(teamMembers.userId, userId), inArray(teamMembers.teamId, teamIds)));
  const byTeam = new Map<string, string[]>();
  for (const row of rows) {
    const ids = byTeam.get(row.teamId) ?? [];
    if (row.permissionId !== null) ids.push(row.permissionId);
    byTeam.set(row.teamId, ids);
  }
  for (const ids of byTeam.values()) ids.sort();
  return byTeam;
}

async function readMemberGrants(db: DbOrTx, scope: Tenancy, teamId: string, userId: string): Promise<string[] | null> {
  // One query: the membership row, left-joined to its grants.
  const rows = await db
    .select({ permissionId: teamPermissionGrants.permissionId })
    .from(teamMembers)
    .leftJoin(
      teamPermissionGrants,
      and(eq(teamPermissionGrants.teamId, teamMembers.teamId), eq(teamPermissionGrants.userId, teamMembers.userId)),
    )
    .where(membershipOf(scope, teamId, userId));
  if (rows.length === 0) return null;
  return rows.flatMap((row) => (row.permissionId === null ? [] : [row.permissionId])).sort();
}

/** The project permissions granted directly to a user. */
export function userProjectGrants(services: Services, scope: Tenancy, userId: string): MaybePromise<readonly string[]> {
  return mapMaybe(
    services.caches.load(services.caches.projectGrants, userId, async () => {
      const rows = await services.db
        .select({ permissionId: projectPermissionGrants.permissionId })
        .from(projectPermissionGrants)
        .where(and(inTenancy(projectPermissionGrants, scope), eq(projectPermissionGrants.userId, userId)));
      return { projectId: scope.projectId, permissionIds: rows.map((row) => row.permissionId).sort() };
    }),
    (entry) => (entry && entry.projectId === scope.projectId ? entry.permissionIds : []),
  );
}

/** The ids of the teams a user belongs to, oldest membership first. */
export function userTeamIds(services: Services, scope: Tenancy, userId: string): MaybePromise<readonly string[]> {
  return mapMaybe(
    services.caches.load(services.caches.userTeams, userId, async () => {
      const rows = await services.db
        .select({ teamId: teamMembers.teamId })
        .from(teamMembers)
        .where(and(inTenancy(teamMembers, scope), eq(teamMembers.userId, userId)))
        .orderBy(asc(teamMembers.createdAt), asc(teamMembers.teamId));
      return { projectId: scope.projectId, teamIds: rows.map((row) => row.teamId) };
    }),
    (entry) => (entry && entry.projectId === scope.projectId ? entry.teamIds : []),
  );
}
