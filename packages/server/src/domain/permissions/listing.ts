/**
 * Listing granted permissions: one item per (team, user, permission id) or
 * (user, permission id). With `recursive`, each grant brings everything it
 * contains; grants whose definition is gone are skipped either way.
 *
 * A listing for one user is answered from the caches (load.ts) without a
 * query or a wait when they hold that user; a listing of every user of a
 * project is one query.
 */
import type { ProjectPermissionJson, TeamPermissionJson } from "@latchkey/shared";
import { and, eq } from "drizzle-orm";
import type { DbOrTx } from "../../db/connect.ts";
import { projectPermissionGrants, teamPermissionGrants } from "../../db/schema/index.ts";
import { settle, type Steps } from "../../lib/maybe-async.ts";
import type { Services } from "../../services.ts";
import type { PermissionGraph, PermissionScope } from "./graph.ts";
import { memberGrantsInTeams, permissionGraph, userProjectGrants, userTeamIds } from "./load.ts";
import { inTenancy, type Tenancy } from "../../db/tenancy.ts";

export interface PermissionFilter {
  permissionId: string | undefined;
  recursive: boolean;
}

/** What `granted` amounts to in `scope`, filtered. */
function heldIds(graph: PermissionGraph, scope: PermissionScope, granted: readonly string[], filter: PermissionFilter): string[] {
  const ids = filter.recursive ? graph.expand(granted) : [...new Set(granted)].sort();
  return ids.filter((id) => graph.get(id)?.scope === scope && (filter.permissionId === undefined || id === filter.permissionId));
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Team permissions of one user, in one team or all of theirs. Steps: no wait when cached. */
export function* userTeamPermissions(
  services: Services,
  scope: Tenancy,
  userId: string,
  teamId: string | undefined,
  filter: PermissionFilter,
): Steps<TeamPermissionJson[]> {
  const teamIds = teamId === undefined ? yield* settle(userTeamIds(services, scope, userId)) : [teamId];
  const grants = yield* settle(memberGrantsInTeams(services, scope, userId, teamIds));
  const graph = yield* settle(permissionGraph(services, scope));
  const items: TeamPermissionJson[] = [];
  for (const team of [...teamIds].sort(compare)) {
    const granted = grants.get(team);
    if (!granted) continue;
    for (const id of heldIds(graph, "team", granted, filter)) items.push({ id, team_id: team, user_id: userId });
  }
  return items;
}

/** Team permissions of every member of the project (or of one team): one query. */
export async function allTeamPermissions(
  services: Services,
  scope: Tenancy,
  teamId: string | undefined,
  filter: PermissionFilter,
): Promise<TeamPermissionJson[]> {
  const rows = await services.db
    .select({ teamId: teamPermissionGrants.teamId, userId: teamPermissionGrants.userId, permissionId: teamPermissionGrants.permissionId })
    .from(teamPermissionGrants)
    .where(and(inTenancy(teamPermissionGrants, scope), teamId === undefined ? undefined : eq(teamPermissionGrants.teamId, teamId)));
  const graph = await permissionGraph(services, scope);
  const byMember = new Map<string, { teamId: string; userId: string; granted: string[] }>();
  for (const row of rows) {
    const key = `${row.teamId}:${row.userId}`;
    const member = byMember.get(key) ?? { teamId: row.teamId, userId: row.userId, granted: [] };
    member.granted.push(row.permissionId);
    byMember.set(key, member);
  }
  const members = [...byMember.values()].sort((a, b) => compare(a.teamId, b.teamId) || compare(a.userId, b.userId));
  return members.flatMap((member) =>
    heldIds(graph, "team", member.granted, filter).map((id) => ({ id, team_id: member.teamId, user_id: member.userId })),
  );
}

/** Project permissions of one user. Steps: no wait when cached. */
export function* userProjectPermissions(
  services: Services,
  scope: Tenancy,
  userId: string,
  filter: PermissionFilter,
): Steps<ProjectPermissionJson[]> {
  const granted = yield* settle(userProjectGrants(services, scope, userId));
  const graph = yield* settle(permissionGraph(services, scope));
  return heldIds(graph, "project", granted, filter).map((id) => ({ id, user_id: userId }));
}

/** Project permissions of every user of the project: one query. */
export async function allProjectPermissions(
  services: Services,
  scope: Tenancy,
  filter: PermissionFilter,
): Promise<ProjectPermissionJson[]> {
  const rows = await projectGrantRows(services.db, scope);
  const graph = await permissionGraph(services, scope);
  const byUser = new Map<string, string[]>();
  for (const row of rows) {
    const granted = byUser.get(row.userId);
    if (granted) granted.push(row.permissionId);
    else byUser.set(row.userId, [row.permissionId]);
  }
  return [...byUser.keys()]
    .sort(compare)
    .flatMap((userId) => heldIds(graph, "project", byUser.get(userId)!, filter).map((id) => ({ id, user_id: userId })));
}

function projectGrantRows(db: DbOrTx, scope: Tenancy) {
  return db
    .select({ userId: projectPermissionGrants.userId, permissionId: projectPermissionGrants.permissionId })
    .from(projectPermissionGrants)
    .where(inTenancy(projectPermissionGrants, scope));
}
