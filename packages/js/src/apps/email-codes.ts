/**
 * Flows that go through a code the server mails: sign-in by magic link or
 * typed code, e-mail verification and password reset. Each returns a Result
 * whose errors are the answers a user can cause (a stale link, a taken
 * address); anything else is thrown.
 */
import { KnownErrors } from "@latchkey/shared/known-errors/index";
import type { AccessType, ApiClient } from "../interface/api-client.ts";
import type { CodeSignInJson } from "../models/json.ts";
import { Result } from "../result.ts";
import type { Session } from "../session/session.ts";
import { anonymousCaller } from "./anonymous-caller.ts";
import { BOT_CHALLENGE_ERRORS, botChallengeFields, type BotChallenge, type BotChallengeError } from "./bot-challenge.ts";

export type VerificationCodeError = InstanceType<typeof KnownErrors.VerificationCodeError>;
type RedirectUrlNotWhitelisted = InstanceType<typeof KnownErrors.RedirectUrlNotWhitelisted>;
type UserWithEmailAlreadyExists = InstanceType<typeof KnownErrors.UserWithEmailAlreadyExists>;
type SignUpNotEnabled = InstanceType<typeof KnownErrors.SignUpNotEnabled>;
type PasswordRequirementsNotMet = InstanceType<typeof KnownErrors.PasswordRequirementsNotMet>;

export type SendMagicLinkError = RedirectUrlNotWhitelisted | UserWithEmailAlreadyExists | SignUpNotEnabled | BotChallengeError;

export interface CodeFlowContext {
  api: ApiClient;
  accessType: AccessType;
  /** The callback the mailed link opens: the caller's, else the handler page's absolute URL (in browsers). */
  callbackUrl(given: string | undefined, page: "magicLinkCallback" | "passwordReset" | "emailVerification" | "teamInvitation"): string;
  /** The app's session, sent with a code sign-in so an anonymous user signing up this way becomes that user. */
  session?: Session;
}

/** Codes a user pastes or a link carries may have spaces or a different case; the server wants 45 lower-case characters. */
export function normalizeCode(code: string): string {
  return code.trim().replace(/\s+/g, "").toLowerCase();
}

export function sendMagicLinkEmail(
  ctx: CodeFlowContext,
  email: string,
  options: { callbackUrl?: string; botChallenge?: BotChallenge } = {},
): Promise<Result<{ nonce: string }, SendMagicLinkError>> {
  return Result.of<{ nonce: string }, SendMagicLinkError>(
    [KnownErrors.RedirectUrlNotWhitelisted, KnownErrors.UserWithEmailAlreadyExists, KnownErrors.SignUpNotEnabled, ...BOT_CHALLENGE_ERRORS],
    async () => {
      const body = await ctx.api.call("POST /auth/otp/send-sign-in-code", {
        accessType: ctx.accessType,
        body: {
          email,
          callback_url: ctx.callbackUrl(options.callbackUrl, "magicLinkCallback"),
          ...botChallengeFields(options.botChallenge),
        },
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
  return Result.of<CodeSignInJson, VerificationCodeError | UserWithEmailAlreadyExists>(
    [KnownErrors.VerificationCodeError, KnownErrors.UserWithEmailAlreadyExists],
    () =>
      ctx.api.call("POST /auth/otp/sign-in", {
        accessType: ctx.accessType,
        ...anonymousCaller(ctx.session),
        body: { code: normalizeCode(code) },
      }),
  );
}

export function verifyEmail(ctx: CodeFlowContext, code: string): Promise<Result<undefined, VerificationCodeError>> {
  return Result.of<undefined, VerificationCodeError>([KnownErrors.VerificationCodeError], async () => {
    await ctx.api.call("POST /contact-channels/verify", { accessType: ctx.accessType, body: { code: normalizeCode(code) } });
    return undefined;
  });
}

/** Always succeeds for a well-formed address: whether an account exists is not revealed. */
export function sendForgotPasswordEmail(
  ctx: CodeFlowContext,
  email: string,
  options: { callbackUrl?: string } = {},
): Promise<Result<undefined, RedirectUrlNotWhitelisted>> {
  return Result.of<undefined, RedirectUrlNotWhitelisted>([KnownErrors.RedirectUrlNotWhitelisted], async () => {
    await ctx.api.call("POST /auth/password/send-reset-code", {
      accessType: ctx.accessType,
      body: { email, callback_url: ctx.callbackUrl(options.callbackUrl, "passwordReset") },
    });
    return undefined;
  });
}

export function verifyPasswordResetCode(ctx: CodeFlowContext, code: string): Promise<Result<undefined, VerificationCodeError>> {
  return Result.of<undefined, VerificationCodeError>([KnownErrors.VerificationCodeError], async () => {
    await ctx.api.call("POST /auth/password/reset/check-code", {
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
  return Result.of<undefined, VerificationCodeError | PasswordRequirementsNotMet>(
    [KnownErrors.VerificationCodeError, KnownErrors.PasswordRequirementsNotMet],
    async () => {
      await ctx.api.call("POST /auth/password/reset", {
        accessType: ctx.accessType,
        body: { code: normalizeCode(options.code), password: options.password },
      });
      return undefined;
    },
  );
}
