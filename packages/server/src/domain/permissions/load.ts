/**
 * Reading permissions on the request path: the project's definitions (one
 * graph per project and branch) and each member's and user's direct grants,
 * all from the per-process caches when they are there (kept coherent by the
 * cache bus: cache/bus.ts), so a check or a recursive listing of a cached
 * member costs no query and no wait.
 */
import { and, asc, eq } from "drizzle-orm";
import type { DbOrTx } from "../../db/connect.ts";
import { permissionDefinitions, projectPermissionGrants, teamMembers, teamPermissionGrants } from "../../db/schema/index.ts";
import { mapMaybe, type MaybePromise } from "../../lib/maybe-async.ts";
import type { Services } from "../../services.ts";
import { PermissionGraph, type PermissionScope } from "./graph.ts";

export interface Scope {
  projectId: string;
  branchId: string;
}

export async function readPermissionGraph(db: DbOrTx, scope: Scope): Promise<PermissionGraph> {
  const rows = await db
    .select()
    .from(permissionDefinitions)
    .where(and(eq(permissionDefinitions.projectId, scope.projectId), eq(permissionDefinitions.branchId, scope.branchId)));
  return new PermissionGraph(
    rows.map((row) => ({
      id: row.id,
      scope: row.scope as PermissionScope,
      description: row.description,
      containedPermissionIds: row.containedPermissionIds,
    })),
  );
}

export function permissionGraph(services: Services, scope: Scope): MaybePromise<PermissionGraph> {
  return mapMaybe(
    services.caches.load(services.caches.permissionGraphs, `${scope.projectId}:${scope.branchId}`, () =>
      readPermissionGraph(services.db, scope),
    ),
    (graph) => graph!,
  );
}

/** The permissions granted directly to a member of a team; null when the user is not a member. */
export function memberGrants(services: Services, scope: Scope, teamId: string, userId: string): MaybePromise<readonly string[] | null> {
  return mapMaybe(
    services.caches.load(services.caches.teamGrants, `${teamId}:${userId}`, async () => {
      const ids = await readMemberGrants(services.db, scope, teamId, userId);
      return ids && { teamId, permissionIds: ids };
    }),
    (entry) => entry?.permissionIds ?? null,
  );
}

async function readMemberGrants(db: DbOrTx, scope: Scope, teamId: string, userId: string): Promise<string[] | null> {
  // One query: the membership row, left-joined to its grants.
  const rows = await db
    .select({ permissionId: teamPermissionGrants.permissionId })
    .from(teamMembers)
    .leftJoin(
      teamPermissionGrants,
      and(eq(teamPermissionGrants.teamId, teamMembers.teamId), eq(teamPermissionGrants.userId, teamMembers.userId)),
    )
    .where(
      and(
        eq(teamMembers.projectId, scope.projectId),
        eq(teamMembers.branchId, scope.branchId),
        eq(teamMembers.teamId, teamId),
        eq(teamMembers.userId, userId),
      ),
    );
  if (rows.length === 0) return null;
  return rows.flatMap((row) => (row.permissionId === null ? [] : [row.permissionId])).sort();
}

/** The project permissions granted directly to a user. */
export function userProjectGrants(services: Services, scope: Scope, userId: string): MaybePromise<readonly string[]> {
  return mapMaybe(
    services.caches.load(services.caches.projectGrants, userId, async () => {
      const rows = await services.db
        .select({ permissionId: projectPermissionGrants.permissionId })
        .from(projectPermissionGrants)
        .where(
          and(
            eq(projectPermissionGrants.projectId, scope.projectId),
            eq(projectPermissionGrants.branchId, scope.branchId),
            eq(projectPermissionGrants.userId, userId),
          ),
        );
      return { projectId: scope.projectId, permissionIds: rows.map((row) => row.permissionId).sort() };
    }),
    (entry) => (entry && entry.projectId === scope.projectId ? entry.permissionIds : []),
  );
}

/** The ids of the teams a user belongs to, oldest membership first. */
export function userTeamIds(services: Services, scope: Scope, userId: string): MaybePromise<readonly string[]> {
  return mapMaybe(
    services.caches.load(services.caches.userTeams, userId, async () => {
      const rows = await services.db
        .select({ teamId: teamMembers.teamId })
        .from(teamMembers)
        .where(and(eq(teamMembers.projectId, scope.projectId), eq(teamMembers.branchId, scope.branchId), eq(teamMembers.userId, userId)))
        .orderBy(asc(teamMembers.createdAt), asc(teamMembers.teamId));
      return { projectId: scope.projectId, teamIds: rows.map((row) => row.teamId) };
    }),
    (entry) => (entry && entry.projectId === scope.projectId ? entry.teamIds : []),
  );
}
