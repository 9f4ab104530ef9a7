/**
 * Signing in with a mailed one-time code: the link, or the 6 characters
 * shown in the e-mail typed back together with the nonce the client kept.
 * The code's data names the address it went to and the user who signs in
 * with that address (null: nobody yet, so using the code signs a new user
 * up, unless another code for the address did so first). Using the code proves the inbox is the user's, so it also verifies
 * the address.
 */
import { KnownErrors } from "@latchkey/shared";
import { and, eq } from "drizzle-orm";
import { inTenancy } from "../../../db/tenancy.ts";
import { record, type EventTx } from "../../../events/transaction.ts";
import { contactChannels } from "../../../db/schema/index.ts";
import type { Services } from "../../../services.ts";
import { signUpBotRiskScore } from "../../bot-challenge/risk-score.ts";
import { checkBotChallenge, type BotChallengeInput, type BotChallengeOutcome } from "../../bot-challenge/verify.ts";
import { prepareCodeMail, saveCodeMail } from "../../codes/mail-code.ts";
import { useCode, type CodeScope } from "../../codes/verification-codes.ts";
import { createUser } from "../../users/create.ts";
import { findAuthEmailChannel, findUser, isAuthEmail, type UserRecord } from "../../users/record.ts";
import { lockAnonymousUser, upgradeAnonymousUser } from "../anonymous/upgrade-anonymous.ts";
import { completeSignIn, signedInOrMfaRequired, type SignInOutcome, type SignedIn } from "../complete-sign-in.ts";
import type { ProjectRow } from "../../projects/project-row.ts";

export interface OtpSignInData {
  email: string;
  user_id: string | null;
  /** For a new address: the bot challenge outcome the user created with this code is scored by. */
  bot_challenge?: BotChallengeOutcome;
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
  input: SignUpPolicy & { email: string; callbackUrl: string; botChallenge: BotChallengeInput; remoteIp: string | null },
): Promise<string> {
  const botChallenge = await newAddressBotChallenge(services, project, branchId, input);
  // Rendered before the transaction (see mail-code.ts); a refused request has merely rendered for nothing.
  const prepared = await prepareCodeMail(services.db, services.logger, {
    project,
    branchId,
    purpose: "otp_sign_in",
    to: input.email,
    callbackUrl: input.callbackUrl,
  });
  await services.events.transaction(services.db, async (tx) => {
    const channel = await findAuthEmailChannel(tx, project.id, branchId, input.email);
    if (channel && !channel.isVerified) throw new KnownErrors.UserWithEmailAlreadyExists(input.email, true);
    if (!channel && !input.signUpAllowed) throw new KnownErrors.SignUpNotEnabled();
    const data: OtpSignInData = { email: input.email, user_id: channel?.userId ?? null };
    // The address lost its user since it was looked up: no challenge was checked for it, so it counts as unverifiable.
    if (!channel) data.bot_challenge = botChallenge ?? "error";
    await saveCodeMail(tx, prepared, { ...data }, services.clock.date());
  });
  return prepared.nonce;
}

/**
 * The bot challenge only guards creating accounts: an address that already
 * signs someone in gets its code whatever the challenge says (null), so a
 * failing widget never locks a user out. For a new address the phase rules
 * apply (they may throw) and the outcome is kept with the code.
 */
async function newAddressBotChallenge(
  services: Services,
  project: ProjectRow,
  branchId: string,
  input: SignUpPolicy & { email: string; botChallenge: BotChallengeInput; remoteIp: string | null },
): Promise<BotChallengeOutcome | null> {
  // Off: every challenge passes, and the address need not be looked up first.
  if (!services.siteverify) return "ok";
  if (await findAuthEmailChannel(services.db, project.id, branchId, input.email)) return null;
  // Refused anyway: no challenge to ask for.
  if (!input.signUpAllowed) throw new KnownErrors.SignUpNotEnabled();
  return checkBotChallenge(
    { siteverify: services.siteverify, config: project.config, action: "send_magic_link_email", remoteIp: input.remoteIp },
    input.botChallenge,
  );
}

/**
 * Uses the code and signs its user in, in one transaction: if anything
 * fails (e.g. the address was taken since the code was mailed), the code
 * stays unused. A caller signed in as an anonymous user who signs up this
 * way keeps their id and data. A user with two-factor gets an attempt code
 * for it instead of tokens (the sign-in code is spent either way).
 */
export async function signInWithCode(
  services: Services,
  project: ProjectRow,
  branchId: string,
  code: string,
  input: SignUpPolicy & { anonymousUser: UserRecord | null; countryCode: string | null; ip: string | null },
): Promise<SignedIn> {
  const scope: CodeScope = { projectId: project.id, branchId, purpose: "otp_sign_in" };
  const outcome = await useCode<OtpSignInData, SignInOutcome>(services, scope, code, async (tx, data) => {
    const { user, isNewUser } =
      data.user_id !== null
        ? { user: await verifiedExistingUser(services, tx, project, branchId, data.user_id, data.email), isNewUser: false }
        : await signInOrSignUp(services, tx, project, branchId, data, input);
    return completeSignIn(services, tx, project, user, { isNewUser, ip: input.ip });
  });
  return signedInOrMfaRequired(outcome);
}

/** Lost a race for the address to another code's sign-up: look again, now finding its user. */
class DecideAgain extends Error {}

/**
 * A code mailed when the address had no user. Several may be out at once
 * (each request mails one), and once one of them created the user, the
 * others sign that user in: they prove the same inbox, as a code mailed
 * now would. Only a verified address counts; one someone took since without
 * proving the inbox is refused, as mailSignInCode refuses it. Two codes used
 * at once race on the unique sign-in address: the loser's savepoint is
 * rolled back and it decides again, after the winner committed.
 */
async function signInOrSignUp(
  services: Services,
  tx: EventTx,
  project: ProjectRow,
  branchId: string,
  data: OtpSignInData,
  input: SignUpPolicy & { anonymousUser: UserRecord | null; countryCode: string | null },
): Promise<{ user: UserRecord; isNewUser: boolean }> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await services.events.transaction(tx, async (savepoint) => {
        const channel = await findAuthEmailChannel(savepoint, project.id, branchId, data.email);
        if (channel?.isVerified) {
          return { user: await verifiedExistingUser(services, savepoint, project, branchId, channel.userId, data.email), isNewUser: false };
        }
        if (channel) throw new KnownErrors.UserWithEmailAlreadyExists(data.email, false);
        // Sign-up may have closed since the code was mailed.
        if (!input.signUpAllowed) throw new KnownErrors.SignUpNotEnabled();
        // Codes mailed before challenges were recorded carry none: nothing was checked, nothing held against the user.
        const botRiskScore = signUpBotRiskScore(data.bot_challenge ?? "ok");
        try {
          const user = await signUpByEmail(
            services,
            savepoint,
            project,
            branchId,
            data.email,
            input.anonymousUser,
            botRiskScore,
            input.countryCode,
          );
          return { user, isNewUser: true };
        } catch (error) {
          // The address was not there when looked up: another transaction took it meanwhile.
          if (error instanceof KnownErrors.UserWithEmailAlreadyExists && attempt === 1) throw new DecideAgain();
          throw error;
        }
      });
    } catch (error) {
      if (!(error instanceof DecideAgain)) throw error;
    }
  }
}

/**
 * The user the code was mailed for, provided they still sign in with that
 * address (a code mailed before the address moved proves nothing about the
 * account now): their address becomes verified.
 */
async function verifiedExistingUser(
  services: Services,
  tx: EventTx,
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
    await tx
      .update(contactChannels)
      .set({ isVerified: true })
      .where(and(inTenancy(contactChannels, { projectId: project.id, branchId }), eq(contactChannels.id, channel.id)));
    await record(tx, { type: "contact_channel.verified", projectId: project.id, branchId, data: { id: channel.id, user_id: userId } });
  }
  return (await findUser(tx, project.id, branchId, userId))!;
}

/** A new user whose verified primary e-mail is their sign-in address, or the anonymous caller upgraded to one. */
async function signUpByEmail(
  services: Services,
  tx: EventTx,
  project: ProjectRow,
  branchId: string,
  email: string,
  anonymousUser: UserRecord | null,
  botRiskScore: number,
  countryCode: string | null,
): Promise<UserRecord> {
  const anonymous = anonymousUser && (await lockAnonymousUser(tx, project, branchId, anonymousUser.id));
  if (anonymous) {
    // One write, one user.updated: the code proved the address, which signs in with codes from now on.
    return upgradeAnonymousUser(tx, project, anonymous, {
      primaryEmail: email,
      primaryEmailVerified: true,
      otpAuthEnabled: true,
      passwordHash: null,
      signUpBotRiskScore: botRiskScore,
    });
  }
  return createUser(tx, project, branchId, {
    signingUp: true,
    primaryEmail: email,
    primaryEmailVerified: true,
    primaryEmailAuthEnabled: true,
    otpAuthEnabled: true,
    signUpBotRiskScore: botRiskScore,
    countryCode,
    now: services.clock.date(),
  });
}
