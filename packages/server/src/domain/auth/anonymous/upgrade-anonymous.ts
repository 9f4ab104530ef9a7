/**
 * An anonymous user who signs up keeps their id and everything attached to
 * it: the row gains an e-mail and stops being anonymous, and a personal team
 * still carrying the placeholder name takes the new name.
 */
import { and, eq } from "drizzle-orm";
import type { Tx } from "../../../db/connect.ts";
import { record, type EventTx } from "../../../events/transaction.ts";
import { teams, users } from "../../../db/schema/index.ts";
import { personalTeamName } from "../../teams/teams.ts";
import { findUser, type UserRecord } from "../../users/record.ts";
import { updateUser } from "../../users/update.ts";
import { inTenancy } from "../../../db/tenancy.ts";
import type { ProjectRow } from "../../projects/project-row.ts";

export async function upgradeAnonymousUser(
  tx: EventTx,
  project: ProjectRow,
  user: UserRecord,
  credentials: {
    /** null: the user stays without an e-mail (an OAuth provider that gives none). */
    primaryEmail: string | null;
    /** Default: the new address signs in, unverified. */
    primaryEmailAuthEnabled?: boolean;
    primaryEmailVerified?: boolean;
    passwordHash: string | null;
    /** A one-time code signed the user up: their e-mail signs in with codes from now on. */
    otpAuthEnabled?: boolean;
    /** Filled in only where the anonymous user has none. */
    displayName?: string | null;
    profileImageUrl?: string | null;
    signUpBotRiskScore?: number;
  },
): Promise<UserRecord> {
  const upgraded = await updateUser(tx, project, user.branchId, user, {
    isAnonymous: false,
    ...(credentials.primaryEmail !== null
      ? {
          primaryEmail: credentials.primaryEmail,
          primaryEmailAuthEnabled: credentials.primaryEmailAuthEnabled ?? true,
          ...(credentials.primaryEmailVerified !== undefined ? { primaryEmailVerified: credentials.primaryEmailVerified } : {}),
        }
      : {}),
    ...(credentials.displayName && user.displayName === null ? { displayName: credentials.displayName } : {}),
    ...(credentials.profileImageUrl && user.profileImageUrl === null ? { profileImageUrl: credentials.profileImageUrl } : {}),
    ...(credentials.passwordHash ? { passwordHash: credentials.passwordHash } : {}),
    ...(credentials.otpAuthEnabled ? { otpAuthEnabled: true } : {}),
    // Signing up is when the account gets its e-mail; the anonymous start answered no challenge.
    ...(credentials.signUpBotRiskScore !== undefined ? { signUpBotRiskScore: credentials.signUpBotRiskScore } : {}),
  });
  if (upgraded.selectedTeamId) {
    const renamed = await tx
      .update(teams)
      .set({ displayName: personalTeamName(upgraded.displayName, upgraded.primaryEmail) })
      .where(
        and(
          inTenancy(teams, { projectId: project.id, branchId: user.branchId }),
          eq(teams.id, upgraded.selectedTeamId),
          eq(teams.displayName, personalTeamName(null, null)),
        ),
      )
      .returning({ id: teams.id });
    // A team the user has named (or another selected team) is left as it is, and nothing is announced for it.
    if (renamed.length > 0) {
      await record(tx, { type: "team.updated", projectId: project.id, branchId: user.branchId, data: { id: upgraded.selectedTeamId } });
    }
  }
  return upgraded;
}

/**
 * The anonymous user as it is now, locked, so two sign-ups racing for one
 * anonymous user do not both upgrade it; null if it was upgraded or deleted
 * meanwhile (then the caller gets a user of their own).
 */
export async function lockAnonymousUser(tx: Tx, project: ProjectRow, branchId: string, userId: string): Promise<UserRecord | null> {
  const [row] = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(inTenancy(users, { projectId: project.id, branchId }), eq(users.id, userId), eq(users.isAnonymous, true)))
    .for("update");
  return row ? findUser(tx, project.id, branchId, userId) : null;
}
