/**
 * Sign-up and sign-in with e-mail and password. Each returns a Result whose
 * errors are the answers a user can cause (a taken address, a wrong
 * password, a failed bot challenge); anything else is thrown. The app keeps
 * the tokens and redirects.
 */
import { KnownErrors } from "@latchkey/shared/known-errors/index";
import type { AccessType, ApiClient } from "../interface/api-client.ts";
import type { SignInTokensJson } from "../models/json.ts";
import { Result } from "../result.ts";
import { BOT_CHALLENGE_ERRORS, botChallengeFields, type BotChallenge, type BotChallengeError } from "./bot-challenge.ts";

export type SignInError = InstanceType<typeof KnownErrors.EmailPasswordMismatch> | InstanceType<typeof KnownErrors.InvalidTotpCode>;
export type SignUpError =
  | InstanceType<typeof KnownErrors.UserWithEmailAlreadyExists>
  | InstanceType<typeof KnownErrors.PasswordRequirementsNotMet>
  | BotChallengeError;

/** Where a sign-in that needs a second factor leaves its attempt code for the MFA page. */
export const MFA_ATTEMPT_STORAGE_KEY = "latchkey-mfa-attempt-code";

export interface CredentialContext {
  api: ApiClient;
  accessType: AccessType;
  /** Sends the browser to the MFA page (the attempt code is already in session storage). */
  toMfaPage(): Promise<void>;
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
  return Result.of<SignInTokensJson, SignInError>([KnownErrors.EmailPasswordMismatch, KnownErrors.InvalidTotpCode], async () => {
    try {
      return await ctx.api.call("POST /auth/password/sign-in", {
        accessType: ctx.accessType,
        body: { email: options.email, password: options.password },
      });
    } catch (error) {
      // A second factor is needed: keep the attempt code for the MFA page, go there, and still report the error.
      if (error instanceof KnownErrors.MultiFactorAuthenticationRequired) {
        if (typeof sessionStorage !== "undefined") sessionStorage.setItem(MFA_ATTEMPT_STORAGE_KEY, error.details.attempt_code);
        await ctx.toMfaPage();
      }
      throw error;
    }
  });
}
