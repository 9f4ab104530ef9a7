/**
 * The permissions a project hands out by default: to a team's creator, to a
 * team's other members when they join, and to every new user (project
 * permissions). The lists live in the project's config; only ids defined in
 * the right scope are granted (a list can name an id an admin has since
 * redefined in the other scope).
 */
import { DEFAULT_TEAM_PERMISSION_DEFINITIONS, isSystemPermissionId } from "@latchkey/shared";
import { and, eq, inArray } from "drizzle-orm";
import type { DbOrTx } from "../../db/connect.ts";
import { permissionDefinitions, projectPermissionGrants, teamPermissionGrants } from "../../db/schema/index.ts";
import type { PermissionScope } from "./graph.ts";
import { inTenancy, type Tenancy } from "../../db/tenancy.ts";
import type { ProjectRow } from "../projects/project-row.ts";

export type TeamRole = "creator" | "member";

async function definedIds(tx: DbOrTx, scope: Tenancy, ids: readonly { id: string }[], kind: PermissionScope): Promise<string[]> {
  if (ids.length === 0) return [];
  const wanted = [...new Set(ids.map((entry) => entry.id))];
  const systemIds = kind === "team" ? wanted.filter(isSystemPermissionId) : [];
  const custom = wanted.filter((id) => !isSystemPermissionId(id));
  if (custom.length === 0) return systemIds;
  // Held until the grants are written: a definition deleted or renamed meanwhile
  // waits for this transaction, and then finds (and rewrites) its new grants.
  const rows = await tx
    .select({ id: permissionDefinitions.id })
    .from(permissionDefinitions)
    .where(and(inTenancy(permissionDefinitions, scope), eq(permissionDefinitions.scope, kind), inArray(permissionDefinitions.id, custom)))
    .for("share");
  return [...systemIds, ...rows.map((row) => row.id)];
}

/** Grants the project's defaults for `role` to a member who has just joined `teamId`. */
/** Returns the ids of the permissions granted. */
export async function grantTeamDefaults(tx: DbOrTx, project: ProjectRow, branchId: string, teamId: string, userId: string, role: TeamRole) {
  const list = role === "creator" ? project.config.team_creator_default_permissions : project.config.team_member_default_permissions;
  const ids = await definedIds(tx, { projectId: project.id, branchId }, list, "team");
  if (ids.length === 0) return ids;
  await tx
    .insert(teamPermissionGrants)
    .values(ids.map((permissionId) => ({ projectId: project.id, branchId, teamId, userId, permissionId })))
    .onConflictDoNothing();
  return ids;
}

/** Grants the project's user defaults to a user who has just been created. */
export async function grantUserDefaults(tx: DbOrTx, project: ProjectRow, branchId: string, userId: string) {
  const ids = await definedIds(tx, { projectId: project.id, branchId }, project.config.user_default_permissions, "project");
  if (ids.length === 0) return;
  await tx
    .insert(projectPermissionGrants)
    .values(ids.map((permissionId) => ({ projectId: project.id, branchId, userId, permissionId })))
    .onConflictDoNothing();
}

/** The team definitions every new project starts with (team_admin, team_member); existing ones are kept. */
export async function insertDefaultPermissionDefinitions(tx: DbOrTx, projectId: string, branchId = "main"): Promise<void> {
  await tx
    .insert(permissionDefinitions)
    .values(
      DEFAULT_TEAM_PERMISSION_DEFINITIONS.map((definition) => ({
        projectId,
        branchId,
        id: definition.id,
        scope: "team" as const,
        description: definition.description,
        containedPermissionIds: [...definition.contained_permission_ids],
      })),
    )
    .onConflictDoNothing();
}
