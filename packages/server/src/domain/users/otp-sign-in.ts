/**
 * Signing in with a mailed one-time code: the link, or the 6 characters
 * shown in the e-mail typed back together with the nonce the client kept.
 * The code's data names the address it went to and the user who signs in
 * with that address (null: nobody yet, so using the code signs a new user
 * up). Using the code proves the inbox is the user's, so it also verifies
 * the address.
 */
import { KnownErrors } from "@latchkey/shared";
import { and, eq } from "drizzle-orm";
import type { DbOrTx, Tx } from "../../db/connect.ts";
import { contactChannels, users } from "../../db/schema/index.ts";
import type { Services } from "../../services.ts";
import { prepareCodeMail, saveCodeMail } from "../codes/mail-code.ts";
import { useCode, type CodeScope } from "../codes/verification-codes.ts";
import type { ProjectRow } from "../projects/projects.ts";
import { signIn } from "../sessions/issue.ts";
import { createUser } from "./create.ts";
import { findAuthEmailChannel, findUser, isAuthEmail, type UserRecord } from "./record.ts";
import { updateUser } from "./update.ts";
import { upgradeAnonymousUser } from "./upgrade-anonymous.ts";

export interface OtpSignInData {
  email: string;
  user_id: string | null;
}

/** Whether a brand-new address may become a user (a client may not while sign-up is closed). */
export interface SignUpPolicy {
  signUpAllowed: boolean;
}

/**
 * Mails a sign-in code to `email` and returns the nonce. An address someone
 * signs in with but never verified is refused: anyone may have signed up
 * with it, and a code must neither hand that account to the inbox's owner
 * nor the inbox owner's sign-in to that account.
 */
export async function mailSignInCode(
  services: Services,
  project: ProjectRow,
  branchId: string,
  input: SignUpPolicy & { email: string; callbackUrl: string },
): Promise<string> {
  // Rendered before the transaction (see mail-code.ts); a refused request has merely rendered for nothing.
  const prepared = await prepareCodeMail(services.db, services.logger, {
    project,
    branchId,
    purpose: "otp_sign_in",
    to: input.email,
    callbackUrl: input.callbackUrl,
  });
  await services.db.transaction(async (tx) => {
    const channel = await findAuthEmailChannel(tx, project.id, branchId, input.email);
    if (channel && !channel.isVerified) throw new KnownErrors.UserWithEmailAlreadyExists(input.email, true);
    if (!channel && !input.signUpAllowed) throw new KnownErrors.SignUpNotEnabled();
    const data: OtpSignInData = { email: input.email, user_id: channel?.userId ?? null };
    await saveCodeMail(tx, prepared, { ...data });
  });
  return prepared.nonce;
}

export interface OtpSignInResult {
  accessToken: string;
  refreshToken: string;
  userId: string;
  isNewUser: boolean;
}

/**
 * Uses the code and signs its user in, in one transaction: if anything
 * fails (e.g. the address was taken since the code was mailed), the code
 * stays unused. A caller signed in as an anonymous user who signs up this
 * way keeps their id and data.
 */
export function signInWithCode(
  services: Services,
  project: ProjectRow,
  branchId: string,
  code: string,
  input: SignUpPolicy & { anonymousUser: UserRecord | null },
): Promise<OtpSignInResult> {
  const scope: CodeScope = { projectId: project.id, branchId, purpose: "otp_sign_in" };
  return useCode<OtpSignInData, OtpSignInResult>(services.db, scope, code, async (tx, data) => {
    let user: UserRecord;
    const isNewUser = data.user_id === null;
    if (data.user_id !== null) {
      user = await verifiedExistingUser(services, tx, project, branchId, data.user_id, data.email);
    } else {
      // Sign-up may have closed since the code was mailed.
      if (!input.signUpAllowed) throw new KnownErrors.SignUpNotEnabled();
      user = await signUpByEmail(services, tx, project, branchId, data.email, input.anonymousUser);
    }
    const session = await signIn(services, tx, project, user);
    return { accessToken: session.accessToken, refreshToken: session.refreshToken, userId: user.id, isNewUser };
  });
}

/**
 * The user the code was mailed for, provided they still sign in with that
 * address (a code mailed before the address moved proves nothing about the
 * account now): their address becomes verified.
 */
async function verifiedExistingUser(
  services: Services,
  tx: Tx,
  project: ProjectRow,
  branchId: string,
  userId: string,
  email: string,
): Promise<UserRecord> {
  const [channel] = await tx
    .select({ id: contactChannels.id, isVerified: contactChannels.isVerified })
    .from(contactChannels)
    .where(and(isAuthEmail(project.id, branchId, email), eq(contactChannels.userId, userId)))
    .for("update");
  // Answered like a code that never existed: it no longer leads anywhere.
  if (!channel) throw new KnownErrors.VerificationCodeNotFound();
  if (!channel.isVerified) {
    await tx.update(contactChannels).set({ isVerified: true }).where(eq(contactChannels.id, channel.id));
    await services.bus.publish(tx, { t: "user", id: userId });
  }
  return (await findUser(tx, project.id, branchId, userId))!;
}

/** A new user whose verified primary e-mail is their sign-in address, or the anonymous caller upgraded to one. */
async function signUpByEmail(
  services: Services,
  tx: Tx,
  project: ProjectRow,
  branchId: string,
  email: string,
  anonymousUser: UserRecord | null,
): Promise<UserRecord> {
  const anonymous = anonymousUser && (await lockAnonymousUser(tx, project, branchId, anonymousUser.id));
  if (anonymous) {
    const upgraded = await upgradeAnonymousUser(tx, services.bus, project, anonymous, { primaryEmail: email, passwordHash: null });
    return updateUser(tx, services.bus, project, branchId, upgraded, { primaryEmailVerified: true, otpAuthEnabled: true });
  }
  return createUser(tx, project, branchId, {
    primaryEmail: email,
    primaryEmailVerified: true,
    primaryEmailAuthEnabled: true,
    otpAuthEnabled: true,
  });
}

/**
 * The anonymous user as it is now, locked, so two sign-ups racing for one
 * anonymous user do not both upgrade it; null if it was upgraded or deleted
 * meanwhile (then the caller gets a user of their own).
 */
async function lockAnonymousUser(tx: Tx, project: ProjectRow, branchId: string, userId: string): Promise<UserRecord | null> {
  const [row] = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.projectId, project.id), eq(users.branchId, branchId), eq(users.id, userId), eq(users.isAnonymous, true)))
    .for("update");
  return row ? findUser(tx, project.id, branchId, userId) : null;
}
