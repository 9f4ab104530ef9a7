/**
 * Invitations to a team by e-mail. An invitation is a one-time code
 * (domain/codes/verification-codes.ts, purpose "team_invitation") whose data
 * names the team and the address it was mailed to; the code's row id is the
 * invitation's id. Whoever holds the code may accept it (the mailed link is
 * the proof), provided they are a full user: joining a team is not for
 * anonymous or restricted accounts. A user with a verified address it was
 * mailed to may also accept it by its id, as it is listed for them.
 */
import { KnownErrors, StatusError, type TeamInvitationDetailsJson, type TeamInvitationJson } from "@latchkey/shared";
import { and, asc, eq, gt, isNull, sql } from "drizzle-orm";
import type { DbOrTx, Tx } from "../../db/connect.ts";
import { contactChannels, teams, users, verificationCodes } from "../../db/schema/index.ts";
import { record, type EventTx } from "../../events/transaction.ts";
import type { Services } from "../../services.ts";
import { prepareCodeMail, saveCodeMail } from "../codes/mail-code.ts";
import { checkCode, useCode, type CodeScope } from "../codes/verification-codes.ts";
import { findUser, restrictedReason, type UserRecord } from "../users/record.ts";
import { addTeamMember, isTeamMember, joinedEvents, type JoiningUser } from "./teams.ts";
import { inTenancy, type Tenancy } from "../../db/tenancy.ts";
import type { ProjectRow } from "../projects/project-row.ts";

/** What an invitation code carries. */
export interface TeamInvitationData {
  team_id: string;
  /** The address the invitation was mailed to, as the sender typed it. */
  recipient_email: string;
}

function invitationScope(scope: Tenancy): CodeScope {
  return { ...scope, purpose: "team_invitation" };
}

/** The code rows of this project's invitations (matches the partial index of migration 0006). */
function invitationRows(scope: Tenancy) {
  return and(inTenancy(verificationCodes, scope), eq(verificationCodes.purpose, "team_invitation"));
}

function pending(now: Date) {
  return and(isNull(verificationCodes.usedAt), gt(verificationCodes.expiresAt, now));
}

function teamOf(scope: Tenancy, teamId: string) {
  return and(inTenancy(teams, scope), eq(teams.id, teamId));
}

async function findTeam(db: DbOrTx, scope: Tenancy, teamId: string): Promise<{ id: string; displayName: string } | null> {
  const [team] = await db.select({ id: teams.id, displayName: teams.displayName }).from(teams).where(teamOf(scope, teamId));
  return team ?? null;
}

/** A full user, or TEAM_INVITATION_RESTRICTED_USER_NOT_ALLOWED. */
export function assertMayJoinByInvitation(user: UserRecord, project: ProjectRow): void {
  const reason = restrictedReason(user, project.config.require_email_verification);
  if (reason) throw new KnownErrors.TeamInvitationRestrictedUserNotAllowed(reason);
}

/**
 * Mails an invitation to `email`: counted against the address's and the
 * caller's limits, rendered outside any transaction, stored and queued in
 * one. Returns the invitation's id.
 */
export async function sendTeamInvitation(
  services: Services,
  project: ProjectRow,
  branchId: string,
  input: { teamId: string; email: string; callbackUrl: string },
  ip: string | null,
): Promise<string> {
  const scope = { projectId: project.id, branchId };
  const team = await findTeam(services.db, scope, input.teamId);
  if (!team) throw new KnownErrors.TeamNotFound(input.teamId);
  services.emailRateLimit.takeCodeEmail(project.id, input.email, ip);
  const prepared = await prepareCodeMail(services.db, services.logger, {
    project,
    branchId,
    purpose: "team_invitation",
    to: input.email,
    callbackUrl: input.callbackUrl,
    teamDisplayName: team.displayName,
  });
  const data: TeamInvitationData = { team_id: team.id, recipient_email: input.email };
  return services.events.transaction(services.db, async (tx) => {
    // Held until the commit: a deletion of the team waits for this invitation, then takes it along.
    const [locked] = await tx.select({ id: teams.id }).from(teams).where(teamOf(scope, team.id)).for("share");
    if (!locked) throw new KnownErrors.TeamNotFound(team.id);
    const id = await saveCodeMail(tx, prepared, { ...data }, services.clock.date());
    await record(tx, { type: "team_invitation.created", ...scope, data: { id, team_id: team.id } });
    return id;
  });
}

/** A team's pending (unused, unexpired) invitations, oldest first; TEAM_NOT_FOUND for a team not in the project. */
export async function listTeamInvitations(db: DbOrTx, scope: Tenancy, teamId: string, now: Date): Promise<TeamInvitationJson[]> {
  // The team left-joined to its invitations: one query tells a team without invitations from no team.
  const rows = await db
    .select({
      teamId: teams.id,
      teamDisplayName: teams.displayName,
      id: verificationCodes.id,
      data: verificationCodes.data,
      expiresAt: verificationCodes.expiresAt,
    })
    .from(teams)
    .leftJoin(verificationCodes, and(invitationRows(scope), sql`${verificationCodes.data}->>'team_id' = ${teams.id}::text`, pending(now)))
    .where(teamOf(scope, teamId))
    .orderBy(asc(verificationCodes.createdAt), asc(verificationCodes.id));
  if (rows.length === 0) throw new KnownErrors.TeamNotFound(teamId);
  return rows.flatMap((row) =>
    row.id === null || row.expiresAt === null ? [] : [invitationJson(row.id, row.data, row.expiresAt, row.teamId, row.teamDisplayName)],
  );
}

/**
 * The pending invitations mailed to any verified address of the user, in
 * teams that still exist, oldest first; USER_NOT_FOUND for a user not in the
 * project.
 */
export async function listUserInvitations(db: DbOrTx, scope: Tenancy, userId: string, now: Date): Promise<TeamInvitationJson[]> {
  const rows = await db
    .select({
      userId: users.id,
      id: verificationCodes.id,
      data: verificationCodes.data,
      expiresAt: verificationCodes.expiresAt,
      teamId: teams.id,
      teamDisplayName: teams.displayName,
    })
    .from(users)
    .leftJoin(
      contactChannels,
      and(eq(contactChannels.userId, users.id), eq(contactChannels.type, "email"), eq(contactChannels.isVerified, true)),
    )
    .leftJoin(
      verificationCodes,
      and(invitationRows(scope), sql`lower(${verificationCodes.data}->>'recipient_email') = lower(${contactChannels.value})`, pending(now)),
    )
    .leftJoin(teams, and(inTenancy(teams, scope), sql`${teams.id}::text = ${verificationCodes.data}->>'team_id'`))
    .where(and(inTenancy(users, scope), eq(users.id, userId)))
    .orderBy(asc(verificationCodes.createdAt), asc(verificationCodes.id));
  if (rows.length === 0) throw new KnownErrors.UserNotFound();
  return rows.flatMap((row) =>
    row.id === null || row.expiresAt === null || row.teamId === null || row.teamDisplayName === null
      ? []
      : [invitationJson(row.id, row.data, row.expiresAt, row.teamId, row.teamDisplayName)],
  );
}

function invitationJson(id: string, data: unknown, expiresAt: Date, teamId: string, teamDisplayName: string): TeamInvitationJson {
  return {
    expires_at_millis: expiresAt.getTime(),
    id,
    recipient_email: (data as TeamInvitationData).recipient_email,
    team_display_name: teamDisplayName,
    team_id: teamId,
  };
}

/**
 * Revokes a pending invitation of `teamId`. One of another team (or an
 * invitation already accepted) is not found; an unknown team is TEAM_NOT_FOUND.
 */
export async function revokeTeamInvitation(db: DbOrTx, scope: Tenancy, teamId: string, invitationId: string): Promise<void> {
  const deleted = await db
    .delete(verificationCodes)
    .where(
      and(
        invitationRows(scope),
        eq(verificationCodes.id, invitationId),
        sql`${verificationCodes.data}->>'team_id' = ${teamId}`,
        isNull(verificationCodes.usedAt),
      ),
    )
    .returning({ id: verificationCodes.id });
  if (deleted.length > 0) return;
  if (!(await findTeam(db, scope, teamId))) throw new KnownErrors.TeamNotFound(teamId);
  throw new StatusError(404, "Team invitation not found");
}

/**
 * The team a code invites to, checked like a use of the code (an attempt is
 * counted) without using it. A code whose team is gone is not found.
 */
export async function checkTeamInvitation(
  services: Pick<Services, "db" | "clock">,
  scope: Tenancy,
  code: string,
): Promise<TeamInvitationDetailsJson> {
  const data = await checkCode<TeamInvitationData>(services, invitationScope(scope), code);
  const team = await findTeam(services.db, scope, data.team_id);
  if (!team) throw new KnownErrors.VerificationCodeNotFound();
  return { team_id: team.id, team_display_name: team.displayName };
}

/**
 * Uses the code and makes the user a member with the project's member
 * defaults, in one transaction. A user already in the team stays as they
 * are, and the code is spent all the same. A code whose team was deleted
 * meanwhile is not found (and stays unspent: there is nothing to join).
 */
export async function acceptTeamInvitation(
  services: Services,
  project: ProjectRow,
  branchId: string,
  user: UserRecord,
  code: string,
): Promise<void> {
  const scope = { projectId: project.id, branchId };
  await useCode<TeamInvitationData, void>(services, invitationScope(scope), code, (tx, data) =>
    joinInvitedTeam(tx, project, branchId, data.team_id, user),
  );
}

/**
 * Accepts a pending invitation by its id, for a user with a verified
 * address it was mailed to (one listUserInvitations lists for them): that
 * address stands in for the mailed code. Spent and joined in one
 * transaction, like a code. An unknown, used or expired invitation, another
 * project's, one mailed to none of the user's verified addresses, or one
 * whose team is gone is VERIFICATION_CODE_NOT_FOUND. Concurrent accepts of
 * one invitation: the row lock lets exactly one spend it.
 */
export async function acceptTeamInvitationById(
  services: Services,
  project: ProjectRow,
  branchId: string,
  userId: string,
  invitationId: string,
) {
  const scope = { projectId: project.id, branchId };
  const now = services.clock.date();
  await services.events.transaction(services.db, async (tx) => {
    const [invitation] = await tx
      .select({ data: verificationCodes.data })
      .from(verificationCodes)
      .where(and(invitationRows(scope), eq(verificationCodes.id, invitationId), pending(now)))
      .for("update");
    if (!invitation) throw new KnownErrors.VerificationCodeNotFound();
    const data = invitation.data as TeamInvitationData;
    const [recipient] = await tx
      .select({ id: contactChannels.id })
      .from(contactChannels)
      .where(
        and(
          inTenancy(contactChannels, scope),
          eq(contactChannels.userId, userId),
          eq(contactChannels.type, "email"),
          eq(contactChannels.isVerified, true),
          sql`lower(${contactChannels.value}) = lower(${data.recipient_email})`,
        ),
      )
      .limit(1);
    const user = recipient && (await findUser(tx, project.id, branchId, userId));
    if (!user) throw new KnownErrors.VerificationCodeNotFound();
    await tx
      .update(verificationCodes)
      .set({ usedAt: now })
      .where(and(invitationRows(scope), eq(verificationCodes.id, invitationId)));
    await joinInvitedTeam(tx, project, branchId, data.team_id, user);
  });
}

/** Makes an invitation's user a member of its team (see acceptTeamInvitation), recording what happened. */
async function joinInvitedTeam(tx: EventTx, project: ProjectRow, branchId: string, teamId: string, user: UserRecord): Promise<void> {
  const scope = { projectId: project.id, branchId };
  // Shared until the commit: the team cannot be deleted between this check and the membership.
  const [team] = await tx.select({ id: teams.id }).from(teams).where(teamOf(scope, teamId)).for("share");
  if (!team) throw new KnownErrors.VerificationCodeNotFound();
  const joining: JoiningUser = { id: user.id, displayName: user.displayName, profileImageUrl: user.profileImageUrl };
  const granted = await joinOnce(tx, project, branchId, team.id, joining);
  // The invitation is spent either way; a member already joined nothing.
  await record(tx, { type: "team_invitation.accepted", ...scope, data: { team_id: team.id, user_id: user.id } });
  if (granted) await record(tx, ...joinedEvents(scope, team.id, user.id, granted));
}

/** Adds the member unless they already are one (null); returns the permissions granted. */
async function joinOnce(tx: Tx, project: ProjectRow, branchId: string, teamId: string, user: JoiningUser): Promise<string[] | null> {
  if (await isTeamMember(tx, { projectId: project.id, branchId }, teamId, user.id)) return null;
  try {
    // A savepoint: another invitation to the same team, accepted by the same user at the same
    // moment, makes this insert fail without failing the transaction that spends this code.
    return await tx.transaction((savepoint) => addTeamMember(savepoint, project, branchId, teamId, user, "member"));
  } catch (error) {
    if (error instanceof KnownErrors.TeamMembershipAlreadyExists) return null;
    throw error;
  }
}
