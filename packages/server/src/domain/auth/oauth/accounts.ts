/**
 * What an OAuth callback does once the provider said who the user is: find
 * the user this provider account signs in, or link it to the signed-in user,
 * or (through the project's merge strategy) to the user who signs in with the
 * same verified e-mail, or create a user; then keep the provider's tokens.
 *
 * Runs inside the callback's transaction, in a savepoint: two first sign-ins
 * of one provider account (or two sign-ups with one e-mail) that race are
 * decided by the unique indexes, and the loser's savepoint is rolled back and
 * the decision taken again, now finding what the winner wrote.
 */
import { KnownErrors } from "@latchkey/shared";
import type { Tx } from "../../../db/connect.ts";
import { record, type EventTx } from "../../../events/transaction.ts";
import { isUniqueViolation } from "../../../db/errors.ts";
import type { Services } from "../../../services.ts";
import type { Tenancy } from "../../../db/tenancy.ts";
import { findAuthEmailChannel, findUser, type UserRecord } from "../../users/record.ts";
import {
  findSignInAccount,
  findUserAccount,
  insertAccount,
  lockAccountOwner,
  updateAccount,
  userSignsInWithProvider,
  type NewOAuthAccount,
} from "./account-rows.ts";
import { createOAuthUser, type ProviderProfile } from "./new-user.ts";
import { signUpBotRiskScore } from "../../bot-challenge/risk-score.ts";
import type { BotChallengeOutcome } from "../../bot-challenge/verify.ts";
import { storeProviderTokens, type ProviderTokens } from "./provider-tokens.ts";
import type { OAuthAccountRow } from "../../../db/schema/index.ts";
import type { ProjectRow } from "../../projects/project-row.ts";

export type { ProviderTokens } from "./provider-tokens.ts";

export interface OAuthSignInInput {
  providerConfigId: string; // the project's provider entry id, e.g. "github"
  profile: ProviderProfile;
  /** null: the provider gave none (native Sign in with Apple sends only an ID token). */
  tokens: ProviderTokens | null;
  type: "authenticate" | "link";
  /** The user of the `token` the app sent to authorize (link: required; authenticate: an anonymous user to upgrade, else ignored), or null. */
  userId: string | null;
  /** Whether a client may create a new user now (sign_up_enabled, or not a client request). */
  signUpAllowed: boolean;
  /** The bot challenge the authorize step checked, scored on a user this sign-in creates; null when none was checked. */
  botChallenge?: BotChallengeOutcome | null;
  /** The client's country (ISO 3166-1 alpha-2) for a user this sign-in creates; null when unknown. */
  countryCode?: string | null;
}

/** A race lost twice in a row is no longer a race: let the error through. */
const ATTEMPTS = 3;

export async function signInOrLinkWithProvider(
  services: Services,
  tx: EventTx,
  project: ProjectRow,
  branchId: string,
  input: OAuthSignInInput,
): Promise<{ user: UserRecord; isNewUser: boolean }> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await services.events.transaction(tx, (savepoint) =>
        input.type === "link"
          ? linkToUser(services, savepoint, project, branchId, input)
          : authenticate(services, savepoint, project, branchId, input),
      );
    } catch (error) {
      if (attempt >= ATTEMPTS || !lostRace(error)) throw error;
    }
  }
}

class DecideAgain extends Error {}

/** Another transaction wrote the same account, or took the same sign-in e-mail (create.ts reports that as a known error). */
function lostRace(error: unknown): boolean {
  return isUniqueViolation(error) || error instanceof KnownErrors.UserWithEmailAlreadyExists || error instanceof DecideAgain;
}

async function linkToUser(
  services: Services,
  tx: EventTx,
  project: ProjectRow,
  branchId: string,
  input: OAuthSignInInput,
): Promise<{ user: UserRecord; isNewUser: boolean }> {
  if (input.userId === null) throw new Error("Linking an OAuth account needs the user who asked for it.");
  const t = { projectId: project.id, branchId };
  const userId = input.userId;
  // Missing when deleted since the flow began.
  if (!(await lockAccountOwner(tx, t, userId))) throw new KnownErrors.UserNotFound();
  const signIn = await findSignInAccount(tx, t, input.providerConfigId, input.profile.accountId);
  if (signIn && signIn.userId !== userId) throw new KnownErrors.OAuthConnectionAlreadyConnectedToAnotherUser();
  const attached = signIn ? { account: signIn, changed: false } : await attachToUser(tx, t, userId, input);
  // Linking again is asking for a connected account: make sure it is one.
  if (!attached.account.allowConnectedAccounts) {
    attached.account = await updateAccount(tx, t, attached.account.id, { allowConnectedAccounts: true });
    attached.changed = true;
  }
  return { user: await keepTokens(services, tx, project, attached, input), isNewUser: false };
}

async function authenticate(
  services: Services,
  tx: EventTx,
  project: ProjectRow,
  branchId: string,
  input: OAuthSignInInput,
): Promise<{ user: UserRecord; isNewUser: boolean }> {
  const t = { projectId: project.id, branchId };
  const { profile } = input;
  const signIn = await findSignInAccount(tx, t, input.providerConfigId, profile.accountId);
  if (signIn) return { user: await keepTokens(services, tx, project, { account: signIn, changed: false }, input), isNewUser: false };

  let emailSignsIn = profile.email !== null;
  const channel = profile.email === null ? null : await findAuthEmailChannel(tx, project.id, branchId, profile.email);
  if (channel) {
    const refused = (wouldWorkIfEmailWasVerified: boolean) =>
      new KnownErrors.ContactChannelAlreadyUsedForAuthBySomeoneElse("email", profile.email, wouldWorkIfEmailWasVerified);
    switch (project.config.oauth_account_merge_strategy) {
      case "link_method": {
        // Both sides must have proved the mailbox: otherwise whoever controls one address would take over the other's account.
        if (!channel.isVerified) throw refused(true);
        if (!profile.emailVerified) throw refused(false);
        // The address's user was deleted since it was looked up: decide again.
        if (!(await lockAccountOwner(tx, t, channel.userId))) throw new DecideAgain();
        const attached = await attachToUser(tx, t, channel.userId, input);
        return { user: await keepTokens(services, tx, project, attached, input), isNewUser: false };
      }
      case "raise_error":
        throw refused(false);
      case "allow_duplicates":
        emailSignsIn = false;
        break;
    }
  }

  if (!input.signUpAllowed) throw new KnownErrors.SignUpNotEnabled();
  const user = await createOAuthUser(services, tx, project, branchId, {
    profile,
    emailSignsIn,
    anonymousUserId: input.userId,
    signUpBotRiskScore: input.botChallenge ? signUpBotRiskScore(input.botChallenge) : undefined,
    countryCode: input.countryCode ?? null,
  });
  const attached =
    user.id === input.userId
      ? // An upgraded anonymous user may have linked accounts of this provider already.
        await attachToUser(tx, t, user.id, input)
      : { account: await insertAccount(tx, t, newAccount(user.id, input, true)), changed: true };
  return { user: await keepTokens(services, tx, project, attached, input), isNewUser: true };
}

interface Attached {
  account: OAuthAccountRow;
  /** Whether the user's object changed (it lists the accounts). */
  changed: boolean;
}

/**
 * The user's row for this provider account, added if missing: it signs in
 * unless the user already signs in with another account of this provider
 * (the caller made sure no one else signs in with this one, and holds the
 * user's lock).
 */
async function attachToUser(tx: Tx, t: Tenancy, userId: string, input: OAuthSignInInput): Promise<Attached> {
  const existing = await findUserAccount(tx, t, userId, input.providerConfigId, input.profile.accountId);
  if (existing) return { account: existing, changed: false };
  const allowSignIn = !(await userSignsInWithProvider(tx, t, userId, input.providerConfigId));
  return { account: await insertAccount(tx, t, newAccount(userId, input, allowSignIn)), changed: true };
}

function newAccount(userId: string, input: OAuthSignInInput, allowSignIn: boolean): NewOAuthAccount {
  return {
    userId,
    providerConfigId: input.providerConfigId,
    providerAccountId: input.profile.accountId,
    email: input.profile.email,
    allowSignIn,
    allowConnectedAccounts: true,
  };
}

/** Keeps the provider's tokens and the account's current e-mail; the user as they now are. */
async function keepTokens(
  services: Services,
  tx: EventTx,
  project: ProjectRow,
  attached: Attached,
  input: OAuthSignInInput,
): Promise<UserRecord> {
  const { account } = attached;
  const t = { projectId: project.id, branchId: account.branchId };
  let changed = attached.changed;
  if (account.email !== input.profile.email) {
    await updateAccount(tx, t, account.id, { email: input.profile.email });
    changed = true;
  }
  if (input.tokens !== null)
    await storeProviderTokens(tx, services.config.serverSecret, t, account.id, input.tokens, services.clock.date());
  if (changed) await record(tx, { type: "user.sign_in_methods_changed", ...t, data: { id: account.userId } });
  return (await findUser(tx, project.id, account.branchId, account.userId))!;
}
