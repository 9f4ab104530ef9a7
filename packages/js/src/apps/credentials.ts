/**
 * Sign-up and sign-in with e-mail and password, and the second step of any
 * sign-in of a user with two-factor on. Each returns a Result whose errors
 * are the answers a user can cause (a taken address, a wrong password or
 * TOTP code, a failed bot challenge); anything else is thrown. The app keeps
 * the tokens and redirects.
 */
import { KnownErrors } from "@latchkey/shared/known-errors/index";
import type { AccessType, ApiClient } from "../interface/api-client.ts";
import type { CodeSignInJson, SignInTokensJson } from "../models/json.ts";
import { Result } from "../result.ts";
import type { Session } from "../session/session.ts";
import { anonymousCaller } from "./anonymous-caller.ts";
import { BOT_CHALLENGE_ERRORS, botChallengeFields, type BotChallenge, type BotChallengeError } from "./bot-challenge.ts";
import { normalizeCode, type VerificationCodeError } from "./email-codes.ts";

export type SignInError = InstanceType<typeof KnownErrors.EmailPasswordMismatch> | InstanceType<typeof KnownErrors.InvalidTotpCode>;
export type SignUpError =
  | InstanceType<typeof KnownErrors.UserWithEmailAlreadyExists>
  | InstanceType<typeof KnownErrors.PasswordRequirementsNotMet>
  | BotChallengeError;
export type MfaSignInError = VerificationCodeError | InstanceType<typeof KnownErrors.InvalidTotpCode>;

/**
 * Where a sign-in that needs a second factor leaves its attempt code (session
 * storage) for the MFA page. Pages written for this key's other established
 * name find it too: reads fall back to it, and a success clears both.
 */
export const MFA_ATTEMPT_STORAGE_KEY = "stack_mfa_attempt_code";
const MFA_ATTEMPT_FALLBACK_STORAGE_KEY = "hexclave_mfa_attempt_code";

export interface MfaRedirectContext {
  /** Sends the browser to the MFA page (the attempt code is already in session storage). */
  toMfaPage(): Promise<void>;
}

export interface CredentialContext extends MfaRedirectContext {
  api: ApiClient;
  accessType: AccessType;
  /** The app's session, sent with sign-up so an anonymous user signing up becomes that user (same id and data). */
  session?: Session;
}

/** The attempt code an MFA-required sign-in left in this tab, if any. */
export function readMfaAttemptCode(): string | null {
  if (typeof sessionStorage === "undefined") return null;
  return sessionStorage.getItem(MFA_ATTEMPT_STORAGE_KEY) ?? sessionStorage.getItem(MFA_ATTEMPT_FALLBACK_STORAGE_KEY);
}

export function forgetMfaAttemptCode(): void {
  if (typeof sessionStorage === "undefined") return;
  sessionStorage.removeItem(MFA_ATTEMPT_STORAGE_KEY);
  sessionStorage.removeItem(MFA_ATTEMPT_FALLBACK_STORAGE_KEY);
}

/**
 * Runs the first step of a sign-in (password, mailed code, passkey, OAuth):
 * when the server asks for a second factor, keeps the attempt code for the
 * MFA page and goes there. The error is still thrown, so a caller without a
 * browser (no session storage, no redirect) can take the code from its
 * `details.attempt_code` and call `signInWithMfa` itself.
 */
export async function catchMfaRequired<T>(ctx: MfaRedirectContext, signIn: () => Promise<T>): Promise<T> {
  try {
    return await signIn();
  } catch (error) {
    if (error instanceof KnownErrors.MultiFactorAuthenticationRequired) {
      if (typeof sessionStorage !== "undefined") sessionStorage.setItem(MFA_ATTEMPT_STORAGE_KEY, error.details.attempt_code);
      await ctx.toMfaPage();
    }
    throw error;
  }
}

export function signUpWithPassword(
  ctx: CredentialContext,
  options: { email: string; password: string; verificationCallbackUrl: string | undefined; botChallenge?: BotChallenge | undefined },
): Promise<Result<SignInTokensJson, SignUpError>> {
  return Result.of<SignInTokensJson, SignUpError>(
    [KnownErrors.UserWithEmailAlreadyExists, KnownErrors.PasswordRequirementsNotMet, ...BOT_CHALLENGE_ERRORS],
    () =>
      ctx.api.call("POST /auth/password/sign-up", {
        accessType: ctx.accessType,
        ...anonymousCaller(ctx.session),
        body: {
          email: options.email,
          password: options.password,
          ...(options.verificationCallbackUrl ? { verification_callback_url: options.verificationCallbackUrl } : {}),
          ...botChallengeFields(options.botChallenge),
        },
      }),
  );
}

export function signInWithPassword(
  ctx: CredentialContext,
  options: { email: string; password: string },
): Promise<Result<SignInTokensJson, SignInError>> {
  return Result.of<SignInTokensJson, SignInError>([KnownErrors.EmailPasswordMismatch, KnownErrors.InvalidTotpCode], () =>
    catchMfaRequired(ctx, () =>
      ctx.api.call("POST /auth/password/sign-in", {
        accessType: ctx.accessType,
        body: { email: options.email, password: options.password },
      }),
    ),
  );
}

/**
 * The second step: the 6 digits of the user's authenticator app and the
 * attempt code of the first step. A wrong TOTP code leaves the attempt code
 * usable (until it expires or runs out of tries); a success spends it, and
 * the stored copy is cleared.
 */
export async function signInWithMfa(
  ctx: CredentialContext,
  options: { totp: string; code: string },
): Promise<Result<CodeSignInJson, MfaSignInError>> {
  const result = await Result.of<CodeSignInJson, MfaSignInError>([KnownErrors.VerificationCodeError, KnownErrors.InvalidTotpCode], () =>
    ctx.api.call("POST /auth/mfa/sign-in", {
      accessType: ctx.accessType,
      body: { type: "totp", totp: options.totp.replace(/\s+/g, ""), code: normalizeCode(options.code) },
    }),
  );
  // A used, expired or exhausted attempt code leads nowhere: the next visit to the MFA page should ask for a new sign-in.
  if (result.status === "ok" || result.error instanceof KnownErrors.VerificationCodeError) forgetMfaAttemptCode();
  return result;
}
