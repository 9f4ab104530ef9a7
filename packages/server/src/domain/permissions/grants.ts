/**
 * Granting and revoking permissions, team (per member) and project (per
 * user). A grant names a permission defined in the right scope; the rows it
 * depends on (the user, the membership, the definition) are locked for the
 * transaction, so a concurrent deletion or rename waits for it rather than
 * leaving a grant of nothing behind.
 */
import { isSystemPermissionId, KnownErrors } from "@latchkey/shared";
import { and, eq } from "drizzle-orm";
import type { DbOrTx } from "../../db/connect.ts";
import { permissionDefinitions, projectPermissionGrants, teamMembers, teamPermissionGrants } from "../../db/schema/index.ts";
import { record } from "../../events/transaction.ts";
import type { Services } from "../../services.ts";
import type { PermissionScope } from "./graph.ts";
import { lockJoiningUser } from "../teams/memberships.ts";
import { membershipOf } from "../teams/teams.ts";
import { inTenancy, type Tenancy } from "../../db/tenancy.ts";

async function lockUser(tx: DbOrTx, scope: Tenancy, userId: string): Promise<void> {
  if (!(await lockJoiningUser(tx, scope, userId))) throw new KnownErrors.UserNotFound();
}

/** An unknown team, or another project's, is a membership not found too. */
async function lockMembership(tx: DbOrTx, scope: Tenancy, teamId: string, userId: string): Promise<void> {
  const rows = await tx
    .select({ userId: teamMembers.userId })
    .from(teamMembers)
    .where(membershipOf(scope, teamId, userId))
    .for("share");
  if (rows.length === 0) throw new KnownErrors.TeamMembershipNotFound(teamId, userId);
}

/** The six system permissions are team permissions every project has; in project scope they are unknown. */
async function lockDefinition(tx: DbOrTx, scope: Tenancy, permissionId: string, expected: PermissionScope): Promise<void> {
  if (isSystemPermissionId(permissionId)) {
    if (expected === "team") return;
    throw new KnownErrors.PermissionNotFound(permissionId);
  }
  const [row] = await tx
    .select({ scope: permissionDefinitions.scope })
    .from(permissionDefinitions)
    .where(and(inTenancy(permissionDefinitions, scope), eq(permissionDefinitions.id, permissionId)))
    .for("share");
  if (!row) throw new KnownErrors.PermissionNotFound(permissionId);
  if (row.scope !== expected) throw new KnownErrors.WrongPermissionScope(permissionId, expected, row.scope);
}

/** Granting what is already granted changes nothing and succeeds. */
export function grantTeamPermission(
  services: Services,
  scope: Tenancy,
  teamId: string,
  userId: string,
  permissionId: string,
): Promise<void> {
  return services.events.transaction(services.db, async (tx) => {
    await lockUser(tx, scope, userId);
    await lockMembership(tx, scope, teamId, userId);
    await lockDefinition(tx, scope, permissionId, "team");
    await tx
      .insert(teamPermissionGrants)
      .values({ ...scope, teamId, userId, permissionId })
      .onConflictDoNothing();
    await record(tx, { type: "team_permission.created", ...scope, data: { id: permissionId, team_id: teamId, user_id: userId } });
  });
}

/** Only a direct grant can be revoked: one held through a containing permission goes with that one. */
export function revokeTeamPermission(
  services: Services,
  scope: Tenancy,
  teamId: string,
  userId: string,
  permissionId: string,
): Promise<void> {
  return services.events.transaction(services.db, async (tx) => {
    await lockUser(tx, scope, userId);
    await lockMembership(tx, scope, teamId, userId);
    const deleted = await tx
      .delete(teamPermissionGrants)
      .where(
        and(
          inTenancy(teamPermissionGrants, scope),
          eq(teamPermissionGrants.teamId, teamId),
          eq(teamPermissionGrants.userId, userId),
          eq(teamPermissionGrants.permissionId, permissionId),
        ),
      )
      .returning({ permissionId: teamPermissionGrants.permissionId });
    if (deleted.length === 0) throw new KnownErrors.TeamPermissionNotFound(teamId, userId, permissionId);
    await record(tx, { type: "team_permission.deleted", ...scope, data: { id: permissionId, team_id: teamId, user_id: userId } });
  });
}

export function grantProjectPermission(services: Services, scope: Tenancy, userId: string, permissionId: string): Promise<void> {
  return services.events.transaction(services.db, async (tx) => {
    await lockUser(tx, scope, userId);
    await lockDefinition(tx, scope, permissionId, "project");
    await tx
      .insert(projectPermissionGrants)
      .values({ ...scope, userId, permissionId })
      .onConflictDoNothing();
    await record(tx, { type: "project_permission.created", ...scope, data: { id: permissionId, user_id: userId } });
  });
}

export function revokeProjectPermission(services: Services, scope: Tenancy, userId: string, permissionId: string): Promise<void> {
  return services.events.transaction(services.db, async (tx) => {
    await lockUser(tx, scope, userId);
    const deleted = await tx
      .delete(projectPermissionGrants)
      .where(
        and(
          inTenancy(projectPermissionGrants, scope),
          eq(projectPermissionGrants.userId, userId),
          eq(projectPermissionGrants.permissionId, permissionId),
        ),
      )
      .returning({ permissionId: projectPermissionGrants.permissionId });
    if (deleted.length === 0) throw new KnownErrors.PermissionNotFound(permissionId);
    await record(tx, { type: "project_permission.deleted", ...scope, data: { id: permissionId, user_id: userId } });
  });
}
