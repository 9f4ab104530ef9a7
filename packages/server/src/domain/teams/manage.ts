/**
 * Creating, listing, changing and deleting teams. Every write records the
 * events of what it changed (events/domain-events.ts) in its own transaction.
 */
import { INTERNAL_PROJECT_ID, KnownErrors, StatusError, type ServerTeamPatch } from "@latchkey/shared";
import { and, asc, eq, sql } from "drizzle-orm";
import type { Db, DbOrTx } from "../../db/connect.ts";
import { record, type Events } from "../../events/transaction.ts";
import { projects, teams, users, verificationCodes, type TeamRow } from "../../db/schema/index.ts";
import { findTeam } from "./cached.ts";
import { lockJoiningUser } from "./memberships.ts";
import { addTeamMember } from "./teams.ts";
import { inTenancy, type Tenancy } from "../../db/tenancy.ts";
import type { ProjectRow } from "../projects/project-row.ts";

type TeamColumns = Partial<typeof teams.$inferInsert>;

function teamColumns(fields: ServerTeamPatch): TeamColumns {
  const columns: TeamColumns = {};
  if (fields.display_name !== undefined) columns.displayName = fields.display_name;
  if (fields.profile_image_url !== undefined) columns.profileImageUrl = fields.profile_image_url;
  if (fields.client_metadata !== undefined) columns.clientMetadata = fields.client_metadata;
  if (fields.client_read_only_metadata !== undefined) columns.clientReadOnlyMetadata = fields.client_read_only_metadata;
  if (fields.server_metadata !== undefined) columns.serverMetadata = fields.server_metadata;
  return columns;
}

/**
 * A new team; with a creator (a user of the project, else USER_NOT_FOUND),
 * who joins it with the team-creator default permissions. The creator's
 * selected team is left as it is.
 */
export async function createTeam(
  db: Db,
  events: Events,
  project: ProjectRow,
  branchId: string,
  fields: ServerTeamPatch & { display_name: string },
  creatorId: string | null,
): Promise<TeamRow> {
  return events.transaction(db, async (tx) => {
    const creator = creatorId === null ? null : await lockJoiningUser(tx, { projectId: project.id, branchId }, creatorId);
    if (creatorId !== null && !creator) throw new KnownErrors.UserNotFound();
    const [team] = await tx
      .insert(teams)
      .values({ ...teamColumns(fields), projectId: project.id, branchId, displayName: fields.display_name })
      .returning();
    if (creator) await addTeamMember(tx, project, branchId, team!.id, creator, "creator");
    await record(tx, {
      type: "team.created",
      projectId: project.id,
      branchId,
      data: { id: team!.id, creator_user_id: creator?.id ?? null },
    });
    return team!;
  });
}

/** All of a project's teams, oldest first. */
export async function listProjectTeams(db: DbOrTx, scope: Tenancy): Promise<TeamRow[]> {
  return db.select().from(teams).where(inTenancy(teams, scope)).orderBy(asc(teams.createdAt), asc(teams.id));
}

export async function updateTeam(db: Db, events: Events, scope: Tenancy, teamId: string, fields: ServerTeamPatch): Promise<TeamRow> {
  const columns = teamColumns(fields);
  if (Object.keys(columns).length === 0) {
    const team = await findTeam(db, scope, teamId);
    if (!team) throw new KnownErrors.TeamNotFound(teamId);
    return team;
  }
  return events.transaction(db, async (tx) => {
    const [team] = await tx
      .update(teams)
      .set(columns)
      .where(and(inTenancy(teams, scope), eq(teams.id, teamId)))
      .returning();
    if (!team) throw new KnownErrors.TeamNotFound(teamId);
    // Also drops the cached users whose selected team this is (they carry its row).
    await record(tx, { type: "team.updated", ...scope, data: { id: teamId } });
    return team;
  });
}

/**
 * Deletes a team with everything that hangs on it, in one transaction: its
 * memberships with their profiles and permission grants (the schema's
 * cascades from teams to team_members to team_permission_grants), its
 * pending invitations, and its place as anyone's selected team.
 */
export async function deleteTeam(db: Db, events: Events, scope: Tenancy, teamId: string): Promise<void> {
  await events.transaction(db, async (tx) => {
    // A team of the internal project may own projects: they would be left with no owners.
    if (scope.projectId === INTERNAL_PROJECT_ID) {
      const owned = await tx.select({ id: projects.id }).from(projects).where(eq(projects.ownerTeamId, teamId)).limit(1);
      if (owned.length > 0) {
        throw new StatusError(400, "This team owns projects. Transfer them to another team, or delete them, before deleting the team.");
      }
    }
    const deleted = await tx
      .delete(teams)
      .where(and(inTenancy(teams, scope), eq(teams.id, teamId)))
      .returning({ id: teams.id });
    if (deleted.length === 0) throw new KnownErrors.TeamNotFound(teamId);
    await tx
      .delete(verificationCodes)
      .where(
        and(
          inTenancy(verificationCodes, scope),
          eq(verificationCodes.purpose, "team_invitation"),
          sql`${verificationCodes.data}->>'team_id' = ${teamId}`,
        ),
      );
    await tx
      .update(users)
      .set({ selectedTeamId: null })
      .where(and(inTenancy(users, scope), eq(users.selectedTeamId, teamId)));
    // One event covers it all on every replica: the team's row, its members'
    // grants and team lists, and the users whose selected team it was.
    await record(tx, { type: "team.deleted", ...scope, data: { id: teamId } });
  });
}
