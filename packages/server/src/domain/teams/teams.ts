import { and, eq } from "drizzle-orm";
import { KnownErrors } from "@latchkey/shared";
import type { DbOrTx } from "../../db/connect.ts";
import type { DomainEvent } from "../../events/domain-events.ts";
import { isUniqueViolation } from "../../db/errors.ts";
import { teamMembers, teams } from "../../db/schema/index.ts";
import { grantTeamDefaults, type TeamRole } from "../permissions/defaults.ts";
import { inTenancy, type Tenancy } from "../../db/tenancy.ts";
import type { ProjectRow } from "../projects/project-row.ts";

/** For route files, which never import db/. */
export type { TeamRow } from "../../db/schema/index.ts";

export interface JoiningUser {
  id: string;
  displayName: string | null;
  profileImageUrl: string | null;
}

/**
 * Adds a user to a team with the project's default permissions for their
 * role. Their member profile starts as a copy of their own profile. Returns
 * the ids of the permissions granted; the caller records the events
 * (`joinedEvents`, or none for a team's creator).
 */
export async function addTeamMember(tx: DbOrTx, project: ProjectRow, branchId: string, teamId: string, user: JoiningUser, role: TeamRole) {
  try {
    await tx.insert(teamMembers).values({
      projectId: project.id,
      branchId,
      teamId,
      userId: user.id,
      displayName: user.displayName,
      profileImageUrl: user.profileImageUrl,
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new KnownErrors.TeamMembershipAlreadyExists();
    throw error;
  }
  return grantTeamDefaults(tx, project, branchId, teamId, user.id, role);
}

/** A member joined: the membership, then each default permission granted. */
export function joinedEvents(scope: Tenancy, teamId: string, userId: string, granted: string[]): DomainEvent[] {
  const { projectId, branchId } = scope;
  return [
    { type: "team_membership.created", projectId, branchId, data: { team_id: teamId, user_id: userId } },
    ...granted.map((id): DomainEvent => ({
      type: "team_permission.created",
      projectId,
      branchId,
      data: { id, team_id: teamId, user_id: userId },
    })),
  ];
}

export async function createTeamWithCreator(
  tx: DbOrTx,
  input: { project: ProjectRow; branchId: string; displayName: string; creator: JoiningUser },
) {
  const [team] = await tx
    .insert(teams)
    .values({ projectId: input.project.id, branchId: input.branchId, displayName: input.displayName })
    .returning();
  await addTeamMember(tx, input.project, input.branchId, team!.id, input.creator, "creator");
  return team!;
}

/** The membership row of `userId` in `teamId`, within the project and branch. */
export function membershipOf(scope: Tenancy, teamId: string, userId: string) {
  return and(inTenancy(teamMembers, scope), eq(teamMembers.teamId, teamId), eq(teamMembers.userId, userId));
}

export async function isTeamMember(db: DbOrTx, t: Tenancy, teamId: string, userId: string): Promise<boolean> {
  const rows = await db
    .select({ userId: teamMembers.userId })
    .from(teamMembers)
    .where(and(inTenancy(teamMembers, t), eq(teamMembers.teamId, teamId), eq(teamMembers.userId, userId)))
    .limit(1);
  return rows.length > 0;
}

/** The name of the personal team made at sign-up. */
export function personalTeamName(displayName: string | null, primaryEmail: string | null): string {
  if (displayName) return `${displayName}'s Team`;
  if (primaryEmail) return `${primaryEmail}'s Team`;
  return "Personal Team";
}
