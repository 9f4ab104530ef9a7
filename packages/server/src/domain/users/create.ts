/**
 * Creating a user, with their primary e-mail and (when the project asks for
 * it and the user signs up) a personal team, in one transaction. A server's
 * `POST /users` is not a sign-up: it never makes a team. The unique index on sign-in
 * e-mails decides races: the loser gets USER_EMAIL_ALREADY_EXISTS.
 */
import { KnownErrors, StatusError, type ServerUserCreate } from "@latchkey/shared";
import { and, eq } from "drizzle-orm";
import type { DbOrTx } from "../../db/connect.ts";
import { record, type EventTx } from "../../events/transaction.ts";
import type { Services } from "../../services.ts";
import { isUniqueViolation } from "../../db/errors.ts";
import { contactChannels, users } from "../../db/schema/index.ts";
import { grantUserDefaults } from "../permissions/defaults.ts";
import { createTeamWithCreator, personalTeamName } from "../teams/teams.ts";
import { hostImages } from "../../capabilities/images/domain/host.ts";
import { primaryEmailNeeded, userPatchFromBody } from "./patch.ts";
import { findUser, type UserRecord } from "./record.ts";
import { inTenancy } from "../../db/tenancy.ts";
import type { ProjectRow } from "../projects/project-row.ts";

export interface NewUser {
  primaryEmail?: string | null;
  primaryEmailVerified?: boolean;
  primaryEmailAuthEnabled?: boolean;
  passwordHash?: string | null;
  displayName?: string | null;
  profileImageUrl?: string | null;
  clientMetadata?: unknown;
  clientReadOnlyMetadata?: unknown;
  serverMetadata?: unknown;
  isAnonymous?: boolean;
  otpAuthEnabled?: boolean;
  passkeyAuthEnabled?: boolean;
  totpSecretSealed?: string | null;
  restrictedByAdmin?: boolean;
  restrictedByAdminReason?: string | null;
  restrictedByAdminPrivateDetails?: string | null;
  countryCode?: string | null;
  /** 0-100 (domain/bot-challenge/risk-score.ts); 0 when no challenge applies. */
  signUpBotRiskScore?: number;
  /** Whether the user signs up (so gets a personal team if the project makes them) or is created by a server. */
  signingUp: boolean;
  /** The clock's time (lib/clock.ts): when the user signed up, and their first activity. */
  now: Date;
}

/** A server's create request: the body checked and any password hashed (the slow part), then the user created in a transaction of its own. */
export async function createUserFromBody(
  services: Pick<Services, "db" | "events" | "config" | "clock" | "images">,
  project: ProjectRow,
  branchId: string,
  body: ServerUserCreate,
): Promise<UserRecord> {
  const { oauth_providers: oauthProviders, ...written } = body;
  if (oauthProviders && oauthProviders.length > 0) {
    throw new StatusError(400, "Linking OAuth accounts on user creation is not available yet on this server.");
  }
  for (const flag of ["primary_email_verified", "primary_email_auth_enabled"] as const) {
    if (written[flag] && !written.primary_email) throw primaryEmailNeeded(flag);
  }
  const fields = await hostImages(services, { projectId: project.id, branchId }, written, ["profile_image_url"]);
  const patch = await userPatchFromBody(fields, services.config.serverSecret);
  if (patch.passwordHash && !fields.primary_email) throw new StatusError(400, "A password needs a primary_email to sign in with.");
  if (patch.selectedTeamId) throw new KnownErrors.TeamNotFound(patch.selectedTeamId);
  return services.events.transaction(services.db, (tx) =>
    createUser(tx, project, branchId, {
      ...patch,
      // A password implies the e-mail signs in, unless said otherwise.
      primaryEmailAuthEnabled: patch.primaryEmailAuthEnabled ?? Boolean(patch.passwordHash),
      passwordHash: patch.passwordHash ?? null,
      signingUp: false,
      now: services.clock.date(),
    }),
  );
}

export async function createUser(tx: EventTx, project: ProjectRow, branchId: string, input: NewUser): Promise<UserRecord> {
  const [row] = await tx
    .insert(users)
    .values({
      projectId: project.id,
      branchId,
      displayName: input.displayName ?? null,
      profileImageUrl: input.profileImageUrl ?? null,
      clientMetadata: input.clientMetadata ?? null,
      clientReadOnlyMetadata: input.clientReadOnlyMetadata ?? null,
      serverMetadata: input.serverMetadata ?? null,
      isAnonymous: input.isAnonymous ?? false,
      passwordHash: input.passwordHash ?? null,
      otpAuthEnabled: input.otpAuthEnabled ?? false,
      passkeyAuthEnabled: input.passkeyAuthEnabled ?? false,
      totpSecretSealed: input.totpSecretSealed ?? null,
      restrictedByAdmin: input.restrictedByAdmin ?? false,
      restrictedByAdminReason: input.restrictedByAdminReason ?? null,
      restrictedByAdminPrivateDetails: input.restrictedByAdminPrivateDetails ?? null,
      countryCode: input.countryCode ?? null,
      signUpBotRiskScore: input.signUpBotRiskScore ?? 0,
      signedUpAt: input.now,
      lastActiveAt: input.now,
    })
    .returning();
  const user = row!;
  await record(tx, { type: "user.created", projectId: project.id, branchId, data: { id: user.id } });
  if (input.primaryEmail) {
    await insertPrimaryEmail(tx, project, branchId, user.id, input.primaryEmail, {
      isVerified: input.primaryEmailVerified ?? false,
      usedForAuth: input.primaryEmailAuthEnabled ?? false,
    });
  }
  if (input.signingUp && project.config.create_team_on_sign_up) {
    const team = await createTeamWithCreator(tx, {
      project,
      branchId,
      displayName: personalTeamName(input.displayName ?? null, input.primaryEmail ?? null),
      creator: { id: user.id, displayName: user.displayName, profileImageUrl: user.profileImageUrl },
    });
    await tx
      .update(users)
      .set({ selectedTeamId: team.id })
      .where(and(inTenancy(users, { projectId: project.id, branchId }), eq(users.id, user.id)));
    await record(tx, { type: "team.created", projectId: project.id, branchId, data: { id: team.id, creator_user_id: user.id } });
  }
  await grantUserDefaults(tx, project, branchId, user.id);
  return (await findUser(tx, project.id, branchId, user.id))!;
}

export async function insertPrimaryEmail(
  tx: DbOrTx,
  project: ProjectRow,
  branchId: string,
  userId: string,
  email: string,
  flags: { isVerified: boolean; usedForAuth: boolean },
): Promise<void> {
  try {
    await tx.insert(contactChannels).values({
      projectId: project.id,
      branchId,
      userId,
      type: "email",
      value: email,
      isPrimary: true,
      isVerified: flags.isVerified,
      usedForAuth: flags.usedForAuth,
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new KnownErrors.UserWithEmailAlreadyExists(email, false);
    throw error;
  }
}
