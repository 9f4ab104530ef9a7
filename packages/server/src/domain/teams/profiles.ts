/**
 * Member profiles: the name and image a member has in one team. A profile
 * starts as a copy of the user's own (domain/teams/teams.ts addTeamMember)
 * and is edited on its own afterwards.
 */
import { KnownErrors, type ClientTeamMemberProfileJson, type ServerTeamMemberProfileJson } from "@latchkey/shared";
import { and, asc, eq, inArray, type SQL } from "drizzle-orm";
import type { DbOrTx } from "../../db/connect.ts";
import { teamMembers, users, type TeamMemberRow } from "../../db/schema/index.ts";
import type { ProjectConfig } from "../projects/config.ts";
import { findUser, toUserRecord, userRecordQuery, type UserRecord } from "../users/record.ts";
import { serverUserView } from "../users/views.ts";
import { findTeam } from "./cached.ts";
import { inTenancy, type Tenancy } from "../../db/tenancy.ts";

export function clientMemberProfileView(member: TeamMemberRow): ClientTeamMemberProfileJson {
  return {
    display_name: member.displayName,
    profile_image_url: member.profileImageUrl,
    team_id: member.teamId,
    user_id: member.userId,
  };
}

export function serverMemberProfileView(member: TeamMemberRow, user: UserRecord, config: ProjectConfig): ServerTeamMemberProfileJson {
  return { ...clientMemberProfileView(member), user: serverUserView(user, config) };
}

function memberWhere(scope: Tenancy, teamId: string, userId: string): SQL {
  return and(inTenancy(teamMembers, scope), eq(teamMembers.teamId, teamId), eq(teamMembers.userId, userId))!;
}

/** Members' profiles, by join time: a team's, a user's, or (neither given) the project's. */
export async function listMemberProfiles(
  db: DbOrTx,
  scope: Tenancy,
  filter: { teamId?: string; userId?: string },
): Promise<TeamMemberRow[]> {
  return db
    .select()
    .from(teamMembers)
    .where(
      and(
        inTenancy(teamMembers, scope),
        filter.teamId === undefined ? undefined : eq(teamMembers.teamId, filter.teamId),
        filter.userId === undefined ? undefined : eq(teamMembers.userId, filter.userId),
      ),
    )
    .orderBy(asc(teamMembers.createdAt), asc(teamMembers.teamId), asc(teamMembers.userId));
}

/** The users of these ids, in one query. */
export async function usersByIds(db: DbOrTx, scope: Tenancy, ids: readonly string[]): Promise<Map<string, UserRecord>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const rows = await userRecordQuery(db).where(and(inTenancy(users, scope), inArray(users.id, unique)));
  return new Map(rows.map((row) => [row.user.id, toUserRecord(row)]));
}

/**
 * The existence checks a request naming a member makes, in order:
 * USER_NOT_FOUND, TEAM_NOT_FOUND (when `checkTeam`), TEAM_MEMBERSHIP_NOT_FOUND.
 */
export async function findNamedMember(
  db: DbOrTx,
  scope: Tenancy,
  teamId: string,
  userId: string,
  checkTeam: boolean,
): Promise<{ user: UserRecord; member: TeamMemberRow }> {
  const user = await findUser(db, scope.projectId, scope.branchId, userId);
  if (!user) throw new KnownErrors.UserNotFound();
  if (checkTeam && !(await findTeam(db, scope, teamId))) throw new KnownErrors.TeamNotFound(teamId);
  const [member] = await db
    .select()
    .from(teamMembers)
    .where(memberWhere(scope, teamId, userId));
  if (!member) throw new KnownErrors.TeamMembershipNotFound(teamId, userId);
  return { user, member };
}

/** Updates a member's profile; null when they are not a member. */
export async function updateMemberProfile(
  db: DbOrTx,
  scope: Tenancy,
  teamId: string,
  userId: string,
  patch: { display_name?: string | null; profile_image_url?: string | null },
): Promise<TeamMemberRow | null> {
  const columns: Partial<typeof teamMembers.$inferInsert> = {};
  if (patch.display_name !== undefined) columns.displayName = patch.display_name;
  if (patch.profile_image_url !== undefined) columns.profileImageUrl = patch.profile_image_url;
  if (Object.keys(columns).length === 0) {
    const [member] = await db
      .select()
      .from(teamMembers)
      .where(memberWhere(scope, teamId, userId));
    return member ?? null;
  }
  const [member] = await db
    .update(teamMembers)
    .set(columns)
    .where(memberWhere(scope, teamId, userId))
    .returning();
  return member ?? null;
}
