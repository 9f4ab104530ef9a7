/**
 * Team rows on the request path, from the per-process cache when they are
 * there (dropped by `{t: "team"}` events: cache/caches.ts). A user's team
 * list is answered at once when their team ids and rows are cached, and a
 * miss loads every missing row in one query.
 */
import { and, eq, inArray } from "drizzle-orm";
import type { DbOrTx } from "../../db/connect.ts";
import { teams, type TeamRow } from "../../db/schema/index.ts";
import { isPromise, mapMaybe, type MaybePromise } from "../../lib/maybe-async.ts";
import type { Services } from "../../services.ts";
import { userTeamIds } from "../permissions/load.ts";
import { inTenancy, type Tenancy } from "../../db/tenancy.ts";

export async function findTeam(db: DbOrTx, scope: Tenancy, teamId: string): Promise<TeamRow | null> {
  const [row] = await db
    .select()
    .from(teams)
    .where(and(inTenancy(teams, scope), eq(teams.id, teamId)));
  return row ?? null;
}

/** The cache is keyed by id alone: a row of another project or branch is not found. */
function belongs(scope: Tenancy, team: TeamRow | null | undefined): team is TeamRow {
  return !!team && team.projectId === scope.projectId && team.branchId === scope.branchId;
}

export function findTeamCached(services: Services, scope: Tenancy, teamId: string): MaybePromise<TeamRow | null> {
  return mapMaybe(
    services.caches.load(services.caches.teams, teamId, () => findTeam(services.db, scope, teamId)),
    (team) => (belongs(scope, team) ? team : null),
  );
}

/** Oldest first (ties by id), the order of every team list. */
export function byCreation(a: TeamRow, b: TeamRow): number {
  return a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

function teamsByIds(services: Services, scope: Tenancy, ids: readonly string[]): MaybePromise<TeamRow[]> {
  const loaded = services.caches.loadMany(services.caches.teams, ids, async (missing) => {
    const rows = await services.db
      .select()
      .from(teams)
      .where(and(inTenancy(teams, scope), inArray(teams.id, missing)));
    return new Map(rows.map((row) => [row.id, row]));
  });
  return mapMaybe(loaded, (found) =>
    ids
      .map((id) => found.get(id))
      .filter((team) => belongs(scope, team))
      .sort(byCreation),
  );
}

/** The teams a user belongs to, oldest first: without a wait when all of it is cached. */
export function userTeamsCached(services: Services, scope: Tenancy, userId: string): MaybePromise<TeamRow[]> {
  const ids = userTeamIds(services, scope, userId);
  return isPromise(ids) ? ids.then((loaded) => teamsByIds(services, scope, loaded)) : teamsByIds(services, scope, ids);
}
