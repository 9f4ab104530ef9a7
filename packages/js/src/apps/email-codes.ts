/**
 * Flows that go through a code the server mails: sign-in by magic link or
 * typed code, e-mail verification and password reset. Each returns a Result
 * whose errors are the answers a user can cause (a stale link, a taken
 * address); anything else is thrown.
 */
import { KnownErrors } from "@latchkey/shared/known-errors/index";
import type { AccessType, ApiClient } from "../interface/api-client.ts";
import type { CodeSignInJson, SignInCodeSentJson } from "../models/json.ts";
import { Result } from "../result.ts";

export type VerificationCodeError = InstanceType<typeof KnownErrors.VerificationCodeError>;
type RedirectUrlNotWhitelisted = InstanceType<typeof KnownErrors.RedirectUrlNotWhitelisted>;
type UserWithEmailAlreadyExists = InstanceType<typeof KnownErrors.UserWithEmailAlreadyExists>;
type SignUpNotEnabled = InstanceType<typeof KnownErrors.SignUpNotEnabled>;
type PasswordRequirementsNotMet = InstanceType<typeof KnownErrors.PasswordRequirementsNotMet>;

export type SendMagicLinkError = RedirectUrlNotWhitelisted | UserWithEmailAlreadyExists | SignUpNotEnabled;

export interface CodeFlowContext {
  api: ApiClient;
  accessType: AccessType;
  /** The callback the mailed link opens: the caller's, else the handler page's absolute URL (in browsers). */
  callbackUrl(given: string | undefined, page: "magicLinkCallback" | "passwordReset" | "emailVerification"): string;
}

/** Codes a user pastes or a link carries may have spaces or a different case; the server wants 45 lower-case characters. */
function normalizeCode(code: string): string {
  return code.trim().replace(/\s+/g, "").toLowerCase();
}

/** Runs `call`; the errors that are instances of `expected` become an error Result. */
async function asResult<T, E>(expected: (abstract new (...a: any[]) => E)[], call: () => Promise<T>): Promise<Result<T, E>> {
  try {
    return Result.ok(await call());
  } catch (error) {
    if (expected.some((kind) => error instanceof kind)) return Result.error(error as E);
    throw error;
  }
}

export function sendMagicLinkEmail(
  ctx: CodeFlowContext,
  email: string,
  options: { callbackUrl?: string } = {},
): Promise<Result<{ nonce: string }, SendMagicLinkError>> {
  return asResult<{ nonce: string }, SendMagicLinkError>(
    [KnownErrors.RedirectUrlNotWhitelisted, KnownErrors.UserWithEmailAlreadyExists, KnownErrors.SignUpNotEnabled],
    async () => {
      const body = await ctx.api.send<SignInCodeSentJson>("/auth/otp/send-sign-in-code", {
        method: "POST",
        accessType: ctx.accessType,
        body: { email, callback_url: ctx.callbackUrl(options.callbackUrl, "magicLinkCallback") },
      });
      return { nonce: body.nonce };
    },
  );
}

/** `code`: the whole code from a link, or the 6 characters a user typed followed by the nonce. */
export function signInWithCode(
  ctx: CodeFlowContext,
  code: string,
): Promise<Result<CodeSignInJson, VerificationCodeError | UserWithEmailAlreadyExists>> {
  return asResult<CodeSignInJson, VerificationCodeError | UserWithEmailAlreadyExists>(
    [KnownErrors.VerificationCodeError, KnownErrors.UserWithEmailAlreadyExists],
    () =>
      ctx.api.send<CodeSignInJson>("/auth/otp/sign-in", {
        method: "POST",
        accessType: ctx.accessType,
        body: { code: normalizeCode(code) },
      }),
  );
}

export function verifyEmail(ctx: CodeFlowContext, code: string): Promise<Result<undefined, VerificationCodeError>> {
  return asResult<undefined, VerificationCodeError>([KnownErrors.VerificationCodeError], async () => {
    await ctx.api.send("/contact-channels/verify", { method: "POST", accessType: ctx.accessType, body: { code: normalizeCode(code) } });
    return undefined;
  });
}

/** Always succeeds for a well-formed address: whether an account exists is not revealed. */
export function sendForgotPasswordEmail(
  ctx: CodeFlowContext,
  email: string,
  options: { callbackUrl?: string } = {},
): Promise<Result<undefined, RedirectUrlNotWhitelisted>> {
  return asResult<undefined, RedirectUrlNotWhitelisted>([KnownErrors.RedirectUrlNotWhitelisted], async () => {
    await ctx.api.send("/auth/password/send-reset-code", {
      method: "POST",
      accessType: ctx.accessType,
      body: { email, callback_url: ctx.callbackUrl(options.callbackUrl, "passwordReset") },
    });
    return undefined;
  });
}

export function verifyPasswordResetCode(ctx: CodeFlowContext, code: string): Promise<Result<undefined, VerificationCodeError>> {
  return asResult<undefined, VerificationCodeError>([KnownErrors.VerificationCodeError], async () => {
    await ctx.api.send("/auth/password/reset/check-code", {
      method: "POST",
      accessType: ctx.accessType,
      body: { code: normalizeCode(code) },
    });
    return undefined;
  });
}

export function resetPassword(
  ctx: CodeFlowContext,
  options: { code: string; password: string },
): Promise<Result<undefined, VerificationCodeError | PasswordRequirementsNotMet>> {
  return asResult<undefined, VerificationCodeError | PasswordRequirementsNotMet>(
    [KnownErrors.VerificationCodeError, KnownErrors.PasswordRequirementsNotMet],
    async () => {
      await ctx.api.send("/auth/password/reset", {
        method: "POST",
        accessType: ctx.accessType,
        body: { code: normalizeCode(options.code), password: options.password },
      });
      return undefined;
    },
  );
}
