/**
 * Applying a user PATCH. Fields absent from the patch stay as they are;
 * a new primary e-mail starts unverified, unless the patch says otherwise.
 */
import { KnownErrors, type ServerUserPatch } from "@latchkey/shared";
import { and, eq, sql, type SQL } from "drizzle-orm";
import type { DbOrTx } from "../../db/connect.ts";
import { record, type EventTx } from "../../events/transaction.ts";
import type { Services } from "../../services.ts";
import { isUniqueViolation } from "../../db/errors.ts";
import { contactChannels, teamMembers, teams, users } from "../../db/schema/index.ts";
import { deleteAllPasskeys } from "../auth/passkey/passkeys.ts";
import { requireUser } from "../contact-channels/channels.ts";
import { revokeUserSessions } from "../sessions/sessions.ts";
import { membershipOf } from "../teams/teams.ts";
import { insertPrimaryEmail } from "./create.ts";
import { primaryEmailNeeded, userPatchFromBody, type UserPatch } from "./patch.ts";
import { findUser, type UserRecord } from "./record.ts";
import { inTenancy } from "../../db/tenancy.ts";
import { hostImages } from "../../capabilities/images/domain/host.ts";
import type { ProjectRow } from "../projects/project-row.ts";

/** A user PATCH request's write: any password hashed first (the slow part), then the update in a transaction of its own. */
export async function updateUserFromBody(
  services: Pick<Services, "db" | "events" | "config" | "images">,
  project: ProjectRow,
  branchId: string,
  user: UserRecord,
  body: Partial<ServerUserPatch>,
): Promise<UserRecord> {
  const written = await hostImages(services, { projectId: project.id, branchId }, body, ["profile_image_url"]);
  const patch = await userPatchFromBody(written, services.config.serverSecret);
  // A server setting the password (or its hash) signs the user out everywhere: whoever held a session may not know the new one.
  const passwordChanged = body.password !== undefined || body.password_hash !== undefined;
  return services.events.transaction(services.db, async (tx) => {
    const updated = await updateUser(tx, project, branchId, user, patch);
    if (passwordChanged) await revokeUserSessions(tx, { projectId: project.id, branchId }, user.id, null);
    return updated;
  });
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

/**
 * The primary e-mail is one of the user's contact channels. Naming an
 * address the user already has promotes that channel (its verification kept
 * unless the patch says otherwise); a new address becomes a new primary
 * channel. Either way, and when the primary e-mail is set to null, the old
 * address stays as a non-primary channel rather than being lost.
 */
async function applyPrimaryEmailPatch(
  tx: DbOrTx,
  project: ProjectRow,
  branchId: string,
  user: UserRecord,
  patch: UserPatch,
): Promise<void> {
  const t = { projectId: project.id, branchId };
  const willHavePrimary = patch.primaryEmail === undefined ? user.primaryEmail !== null : patch.primaryEmail !== null;
  if (!willHavePrimary) {
    if (patch.primaryEmailVerified === true) throw primaryEmailNeeded("primary_email_verified");
    if (patch.primaryEmailAuthEnabled === true) throw primaryEmailNeeded("primary_email_auth_enabled");
  }
  const ofUser = and(inTenancy(contactChannels, t), eq(contactChannels.userId, user.id));
  const demote = () =>
    tx
      .update(contactChannels)
      .set({ isPrimary: false })
      .where(and(ofUser, eq(contactChannels.isPrimary, true)));
  if (patch.primaryEmail === null) {
    await demote();
    return;
  }
  const set: Partial<typeof contactChannels.$inferInsert> = {};
  if (patch.primaryEmailVerified !== undefined) set.isVerified = patch.primaryEmailVerified;
  if (patch.primaryEmailAuthEnabled !== undefined) set.usedForAuth = patch.primaryEmailAuthEnabled;
  const email = patch.primaryEmail;
  let target: SQL | undefined = and(ofUser, eq(contactChannels.isPrimary, true));
  if (email !== undefined && email !== user.primaryEmail) {
    // The user's write lock (domain/contact-channels/channels.ts): channel writes of this user wait for this one.
    await requireUser(tx, t, user.id, true);
    const [existing] = await tx
      .select()
      .from(contactChannels)
      .where(and(ofUser, eq(contactChannels.type, "email"), sql`lower(${contactChannels.value}) = lower(${email})`));
    if (existing === undefined) {
      await demote();
      await insertPrimaryEmail(tx, project, branchId, user.id, email, {
        isVerified: patch.primaryEmailVerified ?? false,
        usedForAuth: patch.primaryEmailAuthEnabled ?? (user.primaryEmail === null ? true : user.primaryEmailAuthEnabled),
      });
      return;
    }
    if (!existing.isPrimary) await demote();
    // Only the case may differ: the same mailbox, so its verification stands.
    Object.assign(set, { value: email, isPrimary: true });
    target = and(ofUser, eq(contactChannels.id, existing.id));
  }
  if (Object.keys(set).length === 0) return;
  try {
    await tx.update(contactChannels).set(set).where(target);
  } catch (error) {
    if (isUniqueViolation(error)) throw new KnownErrors.UserWithEmailAlreadyExists(email ?? user.primaryEmail ?? "", false);
    throw error;
  }
}
