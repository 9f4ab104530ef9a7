/**
 * The step every way of signing in ends with, once it knows who the user
 * is: a user with two-factor on gets an attempt code to finish with their
 * TOTP (/auth/mfa/sign-in) instead of a session; anyone else gets a session.
 * A sign-in method never issues a session itself, so none can skip the second
 * factor.
 */
import { KnownErrors, MFA_ATTEMPT_EXPIRATION_MILLIS } from "@latchkey/shared";
import type { Db } from "../../db/connect.ts";
import type { EventTx } from "../../events/transaction.ts";
import type { Services } from "../../services.ts";
import { createCode } from "../codes/verification-codes.ts";
import { signIn } from "../sessions/issue.ts";
import type { UserRecord } from "../users/record.ts";
import { hasTotp } from "./mfa/totp.ts";
import type { ProjectRow } from "../projects/project-row.ts";

export interface SignedIn {
  accessToken: string;
  refreshToken: string;
  userId: string;
  isNewUser: boolean;
}

/** What an attempt code stands for: the first factor, passed by this user. */
export interface MfaAttemptData {
  user_id: string;
  is_new_user: boolean;
}

export type SignInOutcome = { signedIn: SignedIn } | { mfaAttemptCode: string };

/**
 * Runs inside the sign-in's transaction when it has one, so the attempt code
 * exists exactly when the first factor was spent (a used sign-in code, say).
 */
export async function completeSignIn(
  services: Services,
  db: Db | EventTx,
  project: ProjectRow,
  user: UserRecord,
  options: { isNewUser: boolean; ip?: string | null },
): Promise<SignInOutcome> {
  if (hasTotp(user)) {
    const data: MfaAttemptData = { user_id: user.id, is_new_user: options.isNewUser };
    const scope = { projectId: project.id, branchId: user.branchId, purpose: "mfa_attempt" as const };
    const { code } = await createCode(db, scope, { ...data }, new Date(services.clock.now() + MFA_ATTEMPT_EXPIRATION_MILLIS));
    return { mfaAttemptCode: code };
  }
  const session = await signIn(services, db, project, user, { ip: options.ip ?? null });
  return {
    signedIn: { accessToken: session.accessToken, refreshToken: session.refreshToken, userId: user.id, isNewUser: options.isNewUser },
  };
}

/**
 * Called after the sign-in's transaction committed: the tokens, or the
 * catalogue's MULTI_FACTOR_AUTHENTICATION_REQUIRED carrying the attempt code
 * (thrown only now, so the code it names is stored).
 */
export function signedInOrMfaRequired(outcome: SignInOutcome): SignedIn {
  if ("mfaAttemptCode" in outcome) throw new KnownErrors.MultiFactorAuthenticationRequired(outcome.mfaAttemptCode);
  return outcome.signedIn;
}
