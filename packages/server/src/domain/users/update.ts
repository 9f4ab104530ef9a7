/**
 * Applying a user PATCH. Fields absent from the patch stay as they are;
 * changing the primary e-mail makes it unverified again.
 */
import { KnownErrors, type ServerUserPatch } from "@latchkey/shared";
import { and, eq } from "drizzle-orm";
import type { DbOrTx } from "../../db/connect.ts";
import { record, type EventTx } from "../../events/transaction.ts";
import type { Services } from "../../services.ts";
import { isUniqueViolation } from "../../db/errors.ts";
import { contactChannels, teamMembers, teams, users } from "../../db/schema/index.ts";
import { deleteAllPasskeys } from "../auth/passkey/passkeys.ts";
import { revokeUserSessions } from "../sessions/sessions.ts";
import { membershipOf } from "../teams/teams.ts";
import { insertPrimaryEmail } from "./create.ts";
import { userPatchFromBody, type UserPatch } from "./patch.ts";
import { findUser, type UserRecord } from "./record.ts";
import { inTenancy } from "../../db/tenancy.ts";
import type { ProjectRow } from "../projects/project-row.ts";

/** A user PATCH request's write: any password hashed first (the slow part), then the update in a transaction of its own. */
export async function updateUserFromBody(
  services: Pick<Services, "db" | "events" | "config">,
  project: ProjectRow,
  branchId: string,
  user: UserRecord,
  body: Partial<ServerUserPatch>,
): Promise<UserRecord> {
  const patch = await userPatchFromBody(body, services.config.serverSecret);
  // A server setting the password (or its hash) signs the user out everywhere: whoever held a session may not know the new one.
  const passwordChanged = body.password !== undefined || body.password_hash !== undefined;
  return services.events.transaction(services.db, async (tx) => {
    const updated = await updateUser(tx, project, branchId, user, patch);
    if (passwordChanged) await revokeUserSessions(tx, { projectId: project.id, branchId }, user.id, null);
    return updated;
  });
}

/** A checked patch (any password already hashed), in a transaction of its own. */
export function saveUserPatch(
  services: Pick<Services, "db" | "events">,
  project: ProjectRow,
  branchId: string,
  user: UserRecord,
  patch: UserPatch,
): Promise<UserRecord> {
  return services.events.transaction(services.db, (tx) => updateUser(tx, project, branchId, user, patch));
}

export async function updateUser(
  tx: EventTx,
  project: ProjectRow,
  branchId: string,
  user: UserRecord,
  patch: UserPatch,
): Promise<UserRecord> {
  if (patch.selectedTeamId) {
    const team = await tx
      .select({ id: teams.id })
      .from(teams)
      .where(and(inTenancy(teams, { projectId: project.id, branchId }), eq(teams.id, patch.selectedTeamId)));
    if (team.length === 0) throw new KnownErrors.TeamNotFound(patch.selectedTeamId);
    // Held until this write commits: a removal from the team (or the team's deletion) waits,
    // then clears the selection it finds, so no user is left with a team they are not in.
    const membership = await tx
      .select({ userId: teamMembers.userId })
      .from(teamMembers)
      .where(membershipOf({ projectId: project.id, branchId }, patch.selectedTeamId, user.id))
      .for("key share");
    if (membership.length === 0) throw new KnownErrors.TeamMembershipNotFound(patch.selectedTeamId, user.id);
  }
  const columns: Partial<typeof users.$inferInsert> = {};
  const copy = <K extends keyof UserPatch & keyof typeof users.$inferInsert>(key: K) => {
    if (patch[key] !== undefined) (columns as Record<string, unknown>)[key] = patch[key];
  };
  for (const key of [
    "displayName",
    "profileImageUrl",
    "clientMetadata",
    "clientReadOnlyMetadata",
    "serverMetadata",
    "selectedTeamId",
    "totpSecretSealed",
    "otpAuthEnabled",
    "passkeyAuthEnabled",
    "passwordHash",
    "isAnonymous",
    "restrictedByAdmin",
    "restrictedByAdminReason",
    "restrictedByAdminPrivateDetails",
    "countryCode",
    "signUpBotRiskScore",
  ] as const) {
    copy(key);
  }
  if (Object.keys(columns).length > 0) {
    await tx
      .update(users)
      .set(columns)
      .where(and(inTenancy(users, { projectId: project.id, branchId }), eq(users.id, user.id)));
  }
  if (patch.passkeyAuthEnabled === false) await deleteAllPasskeys(tx, { projectId: project.id, branchId }, user.id);
  await applyPrimaryEmailPatch(tx, project, branchId, user, patch);
  await record(tx, { type: "user.updated", projectId: project.id, branchId, data: { id: user.id } });
  return (await findUser(tx, project.id, branchId, user.id))!;
}

async function applyPrimaryEmailPatch(
  tx: DbOrTx,
  project: ProjectRow,
  branchId: string,
  user: UserRecord,
  patch: UserPatch,
): Promise<void> {
  const primary = and(
    inTenancy(contactChannels, { projectId: project.id, branchId }),
    eq(contactChannels.userId, user.id),
    eq(contactChannels.isPrimary, true),
  );
  if (patch.primaryEmail === null) {
    await tx.delete(contactChannels).where(primary);
    return;
  }
  const emailChanged = patch.primaryEmail !== undefined && patch.primaryEmail !== user.primaryEmail;
  if (emailChanged && user.primaryEmail === null) {
    await insertPrimaryEmail(tx, project, branchId, user.id, patch.primaryEmail!, {
      isVerified: patch.primaryEmailVerified ?? false,
      usedForAuth: patch.primaryEmailAuthEnabled ?? true,
    });
    return;
  }
  const set: Partial<typeof contactChannels.$inferInsert> = {};
  if (emailChanged) {
    set.value = patch.primaryEmail!;
    set.isVerified = false;
  }
  if (patch.primaryEmailVerified !== undefined) set.isVerified = patch.primaryEmailVerified;
  if (patch.primaryEmailAuthEnabled !== undefined) set.usedForAuth = patch.primaryEmailAuthEnabled;
  if (Object.keys(set).length === 0 || user.primaryEmail === null) return;
  try {
    await tx.update(contactChannels).set(set).where(primary);
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw new KnownErrors.UserWithEmailAlreadyExists(patch.primaryEmail ?? user.primaryEmail, false);
    }
    throw error;
  }
}
