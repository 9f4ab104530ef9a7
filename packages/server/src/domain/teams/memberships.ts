/**
 * Adding and removing team members. Both lock the rows they depend on
 * (`FOR KEY SHARE`) so a team or user deleted meanwhile reads as not found
 * rather than failing on a foreign key; two adds of one member race on the
 * membership's primary key, and the loser gets TEAM_MEMBERSHIP_ALREADY_EXISTS.
 */
import { KnownErrors } from "@latchkey/shared";
import { and, eq } from "drizzle-orm";
import type { Db, DbOrTx } from "../../db/connect.ts";
import { record, type Events } from "../../events/transaction.ts";
import { teamMembers, teams, users } from "../../db/schema/index.ts";
import { addTeamMember, joinedEvents, membershipOf, type JoiningUser } from "./teams.ts";
import { inTenancy, type Tenancy } from "../../db/tenancy.ts";
import type { ProjectRow } from "../projects/project-row.ts";

/** The user about to join a team (null when the project has no such user), locked against deletion until the transaction ends. */
export async function lockJoiningUser(tx: DbOrTx, scope: Tenancy, userId: string): Promise<JoiningUser | null> {
  const [user] = await tx
    .select({ id: users.id, displayName: users.displayName, profileImageUrl: users.profileImageUrl })
    .from(users)
    .where(and(inTenancy(users, scope), eq(users.id, userId)))
    .for("key share");
  return user ?? null;
}

async function lockTeam(tx: DbOrTx, scope: Tenancy, teamId: string): Promise<boolean> {
  const rows = await tx
    .select({ id: teams.id })
    .from(teams)
    .where(and(inTenancy(teams, scope), eq(teams.id, teamId)))
    .for("key share");
  return rows.length > 0;
}

/** Checks, in this order: USER_NOT_FOUND, TEAM_NOT_FOUND, TEAM_MEMBERSHIP_ALREADY_EXISTS. */
export async function addMember(db: Db, events: Events, project: ProjectRow, branchId: string, teamId: string, userId: string) {
  const scope = { projectId: project.id, branchId };
  await events.transaction(db, async (tx) => {
    const user = await lockJoiningUser(tx, scope, userId);
    if (!user) throw new KnownErrors.UserNotFound();
    if (!(await lockTeam(tx, scope, teamId))) throw new KnownErrors.TeamNotFound(teamId);
    const granted = await addTeamMember(tx, project, branchId, teamId, user, "member");
    await record(tx, ...joinedEvents(scope, teamId, userId, granted));
  });
}

/**
 * Removes a member (their profile and grants go with the row) and clears
 * the team as their selected team. Checks USER_NOT_FOUND, then (with
 * `checkTeam`) TEAM_NOT_FOUND, then TEAM_MEMBERSHIP_NOT_FOUND.
 */
export async function removeMember(db: Db, events: Events, scope: Tenancy, teamId: string, userId: string, checkTeam: boolean) {
  await events.transaction(db, async (tx) => {
    if (!(await lockJoiningUser(tx, scope, userId))) throw new KnownErrors.UserNotFound();
    if (checkTeam && !(await lockTeam(tx, scope, teamId))) throw new KnownErrors.TeamNotFound(teamId);
    const removed = await tx
      .delete(teamMembers)
      .where(membershipOf(scope, teamId, userId))
      .returning({ userId: teamMembers.userId });
    if (removed.length === 0) throw new KnownErrors.TeamMembershipNotFound(teamId, userId);
    const unselected = await tx
      .update(users)
      .set({ selectedTeamId: null })
      .where(and(inTenancy(users, scope), eq(users.id, userId), eq(users.selectedTeamId, teamId)))
      .returning({ id: users.id });
    const data = { team_id: teamId, user_id: userId, ...(unselected.length > 0 ? { selected_team_cleared: true } : {}) };
    await record(tx, { type: "team_membership.deleted", ...scope, data });
  });
}
