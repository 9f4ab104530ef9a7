/**
 * Where a permission id is named besides its definition: grants, other
 * definitions' contained lists, and the project's default-permission lists.
 * Renaming a definition carries its new id to each; deleting it removes the
 * id from each. Runs inside the definition write's transaction
 * (definitions.ts), and announces what it changed to the caches.
 */
import { and, eq, sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/connect.ts";
import { applyConfigOverride } from "@latchkey/shared";
import { permissionDefinitions, projectPermissionGrants, teamPermissionGrants } from "../../db/schema/index.ts";
import { record, type EventTx } from "../../events/transaction.ts";
import { legacyPatchOverride } from "../config/legacy.ts";
import { readOverrides, renderOverrides, saveOverride } from "../config/store.ts";
import type { Services } from "../../services.ts";
import type { ProjectConfig } from "../projects/config.ts";
import type { PermissionScope } from "./graph.ts";
import { inTenancy, type Tenancy } from "../../db/tenancy.ts";
import type { ProjectRow } from "../projects/project-row.ts";

/** Beyond this many members or users touched, one project event (which drops all its grants) beats one event each. */
const PRECISE_EVENTS_LIMIT = 100;

const DEFAULT_LISTS = ["team_creator_default_permissions", "team_member_default_permissions", "user_default_permissions"] as const;

/** `to`: the new id, or null to remove `from` everywhere. */
export async function rewriteReferences(
  tx: EventTx,
  services: Services,
  scope: Tenancy,
  project: ProjectRow,
  kind: PermissionScope,
  from: string,
  to: string | null,
): Promise<void> {
  const rewritten =
    kind === "team"
      ? { team_members: await rewriteTeamGrants(tx, scope, from, to), users: [] }
      : { team_members: [], users: await rewriteProjectGrants(tx, scope, from, to) };
  const touched = rewritten.team_members.length + rewritten.users.length;
  await rewriteContainedLists(tx, scope, from, to);
  const lists = rewriteDefaultLists(project.config, from, to);
  if (lists) {
    // The default lists live in the environment override (config/legacy.ts).
    const stored = await readOverrides(tx, scope, "environment");
    const environment = applyConfigOverride(stored.environment, legacyPatchOverride(lists));
    await saveOverride(tx, services.config.serverSecret, scope, "environment", environment, renderOverrides(stored));
  }
  // A project event also drops every cached grant of the project (cache/caches.ts).
  if (lists || touched > PRECISE_EVENTS_LIMIT) await services.projects.changed(tx, project.id);
  else if (touched > 0) await record(tx, { type: "permission_grants.rewritten", ...scope, data: rewritten });
}

async function rewriteTeamGrants(
  tx: DbOrTx,
  scope: Tenancy,
  from: string,
  to: string | null,
): Promise<{ team_id: string; user_id: string }[]> {
  const where = and(inTenancy(teamPermissionGrants, scope), eq(teamPermissionGrants.permissionId, from));
  const member = { teamId: teamPermissionGrants.teamId, userId: teamPermissionGrants.userId };
  const rows =
    to === null
      ? await tx.delete(teamPermissionGrants).where(where).returning(member)
      : await tx.update(teamPermissionGrants).set({ permissionId: to }).where(where).returning(member);
  return rows.map((row) => ({ team_id: row.teamId, user_id: row.userId }));
}

async function rewriteProjectGrants(tx: DbOrTx, scope: Tenancy, from: string, to: string | null): Promise<string[]> {
  const where = and(inTenancy(projectPermissionGrants, scope), eq(projectPermissionGrants.permissionId, from));
  const user = { userId: projectPermissionGrants.userId };
  const rows =
    to === null
      ? await tx.delete(projectPermissionGrants).where(where).returning(user)
      : await tx.update(projectPermissionGrants).set({ permissionId: to }).where(where).returning(user);
  return rows.map((row) => row.userId);
}

async function rewriteContainedLists(tx: DbOrTx, scope: Tenancy, from: string, to: string | null): Promise<void> {
  const column = permissionDefinitions.containedPermissionIds;
  await tx
    .update(permissionDefinitions)
    .set({
      containedPermissionIds:
        to === null ? sql`array_remove(${column}, ${from}::text)` : sql`array_replace(${column}, ${from}::text, ${to}::text)`,
    })
    .where(and(inTenancy(permissionDefinitions, scope), sql`${from}::text = any(${column})`));
}

/** The default lists with `from` renamed or removed in each, or null when no list names it. */
function rewriteDefaultLists(
  config: ProjectConfig,
  from: string,
  to: string | null,
): Pick<ProjectConfig, (typeof DEFAULT_LISTS)[number]> | null {
  if (!DEFAULT_LISTS.some((name) => config[name].some((entry) => entry.id === from))) return null;
  const next: Pick<ProjectConfig, (typeof DEFAULT_LISTS)[number]> = { ...config };
  for (const name of DEFAULT_LISTS) {
    const ids = config[name].map((entry) => (entry.id === from ? to : entry.id)).filter((id): id is string => id !== null);
    next[name] = [...new Set(ids)].map((id) => ({ id }));
  }
  return next;
}
