/**
 * Signing in and up: with a password, a mailed one-time code, anonymously,
 * and the OAuth token endpoint; the bodies they take, the tokens they answer
 * with, and the password-reset and password-change endpoints.
 */
import { z } from "zod";
import { KnownErrors } from "../known-errors/index.ts";
import { emailSchema, urlSchema, verificationCodeSchema } from "../schema-fields.ts";
import { codeBody, mailCodeBody } from "./codes.ts";
import { defineEndpoint } from "./endpoint.ts";
import { successJson } from "./json.ts";

/** Sign-up, sign-in, anonymous sign-up. */
export const signInTokensJson = z.strictObject({
  access_token: z.string(),
  refresh_token: z.string(),
  user_id: z.string(),
});
export type SignInTokensJson = z.infer<typeof signInTokensJson>;

/** A sign-in with a code: the tokens, and whether the account was just made. */
export const codeSignInJson = signInTokensJson.extend({ is_new_user: z.boolean() });
export type CodeSignInJson = z.infer<typeof codeSignInJson>;

/** The part of a mailed sign-in code the client keeps; the user types the other characters. */
export const signInCodeSentJson = z.strictObject({ nonce: z.string() });
export type SignInCodeSentJson = z.infer<typeof signInCodeSentJson>;

/** A check-code answer: a code that does not work answers with its error instead. */
export const codeCheckJson = z.strictObject({ is_code_valid: z.literal(true) });
export type CodeCheckJson = z.infer<typeof codeCheckJson>;

/** What send-reset-code answers whether or not the address has an account (it tells no one which). */
export const RESET_CODE_MAYBE_SENT = Object.freeze({ success: "maybe, only if user with e-mail exists" as const });
export const resetCodeSentJson = z.strictObject({ success: z.literal(RESET_CODE_MAYBE_SENT.success) });

/**
 * The bot challenge fields a client adds to a request that may create an
 * account: the widget's token and the step it came from, or the word that no
 * widget could run at all (then there is nothing to verify).
 */
export const botChallengeFields = {
  bot_challenge_token: z.string().optional(),
  bot_challenge_phase: z.enum(["invisible", "visible"]).optional(),
  bot_challenge_unavailable: z.literal("true").optional(),
};
export type BotChallengeFields = { [K in keyof typeof botChallengeFields]?: z.output<(typeof botChallengeFields)[K]> };

/** "unavailable" says no token exists, so it cannot come with one or with a phase (for `.superRefine`). */
export function refineBotChallenge(body: BotChallengeFields, ctx: z.RefinementCtx): void {
  if (body.bot_challenge_unavailable !== undefined && (body.bot_challenge_token !== undefined || body.bot_challenge_phase !== undefined)) {
    ctx.addIssue({
      code: "custom",
      path: ["bot_challenge_unavailable"],
      message: "cannot be given together with bot_challenge_token or bot_challenge_phase",
    });
  }
}

const credentialFields = {
  email: emailSchema,
  password: z.string(),
};

export const passwordSignUpBody = z
  .strictObject({ ...credentialFields, verification_callback_url: urlSchema.optional(), ...botChallengeFields })
  .superRefine(refineBotChallenge);
export type PasswordSignUpBody = z.input<typeof passwordSignUpBody>;

export const passwordSignInBody = z.strictObject(credentialFields);

/** A sign-in code may create an account, so it carries the bot challenge. */
export const otpSendSignInCodeBody = mailCodeBody.extend(botChallengeFields).superRefine(refineBotChallenge);
export type OtpSendSignInCodeBody = z.input<typeof otpSendSignInCodeBody>;
export type PasswordSignInBody = z.input<typeof passwordSignInBody>;

export const passwordResetBody = z.strictObject({ code: verificationCodeSchema, password: z.string() });
export type PasswordResetBody = z.input<typeof passwordResetBody>;

export const passwordSetBody = passwordResetBody.pick({ password: true });
export type PasswordSetBody = z.input<typeof passwordSetBody>;

export const passwordUpdateBody = z.strictObject({ old_password: z.string(), new_password: z.string() });
export type PasswordUpdateBody = z.input<typeof passwordUpdateBody>;

/**
 * The OAuth token request, as a form or JSON. Not strict: OAuth clients send
 * parameters of their own, which the endpoint ignores.
 */
export const oauthTokenBody = z.object({
  grant_type: z.enum(["refresh_token", "authorization_code"]),
  client_id: z.string().optional(),
  client_secret: z.string().optional(),
  refresh_token: z.string().optional(),
  code: z.string().optional(),
  redirect_uri: z.string().optional(),
  code_verifier: z.string().optional(),
  scope: z.string().optional(),
});
export type OAuthTokenBody = z.input<typeof oauthTokenBody>;

/** The refresh grant's answer. */
export const oauthRefreshedTokenJson = z.strictObject({
  access_token: z.string(),
  afterCallbackRedirectUrl: z.string().nullable(),
  after_callback_redirect_url: z.string().nullable(),
  expires_in: z.number().int(),
  scope: z.literal("legacy"),
  token_type: z.literal("Bearer"),
});
/** The authorization-code grant's answer: the refresh grant's, with a refresh token and whether the user is new. */
export const oauthCodeTokenJson = oauthRefreshedTokenJson.extend({
  is_new_user: z.boolean(),
  newUser: z.boolean(),
  refresh_token: z.string(),
});
export const oauthTokenJson = z.union([oauthCodeTokenJson, oauthRefreshedTokenJson]);
export type OAuthTokenJson = z.infer<typeof oauthTokenJson>;

const ALL = ["client", "server", "admin"] as const;
const PASSWORD_RULES = [KnownErrors.PasswordTooShort, KnownErrors.PasswordTooLong] as const;
const CODE_ERRORS = [
  KnownErrors.VerificationCodeNotFound,
  KnownErrors.VerificationCodeExpired,
  KnownErrors.VerificationCodeAlreadyUsed,
  KnownErrors.VerificationCodeMaxAttemptsReached,
] as const;

export const authEndpoints = {
  passwordSignUp: defineEndpoint({
    method: "POST",
    path: "/auth/password/sign-up",
    summary: "Sign up with e-mail and password",
    tags: ["Password"],
    access: ALL,
    body: passwordSignUpBody,
    response: signInTokensJson,
    errors: [
      KnownErrors.PasswordAuthenticationNotEnabled,
      KnownErrors.SignUpNotEnabled,
      ...PASSWORD_RULES,
      KnownErrors.RedirectUrlNotWhitelisted,
      KnownErrors.UserWithEmailAlreadyExists,
      KnownErrors.BotChallengeRequired,
      KnownErrors.BotChallengeFailed,
    ],
  }),
  passwordSignIn: defineEndpoint({
    method: "POST",
    path: "/auth/password/sign-in",
    summary: "Sign in with e-mail and password",
    tags: ["Password"],
    access: ALL,
    body: passwordSignInBody,
    response: signInTokensJson,
    errors: [
      KnownErrors.PasswordAuthenticationNotEnabled,
      KnownErrors.EmailPasswordMismatch,
      KnownErrors.MultiFactorAuthenticationRequired,
    ],
  }),
  passwordUpdate: defineEndpoint({
    method: "POST",
    path: "/auth/password/update",
    summary: "Change the signed-in user's password",
    tags: ["Password"],
    access: ALL,
    user: "required",
    body: passwordUpdateBody,
    response: successJson,
    errors: [
      KnownErrors.PasswordAuthenticationNotEnabled,
      KnownErrors.UserDoesNotHavePassword,
      KnownErrors.PasswordConfirmationMismatch,
      ...PASSWORD_RULES,
    ],
  }),
  passwordSet: defineEndpoint({
    method: "POST",
    path: "/auth/password/set",
    summary: "Set a password for a user who has none",
    tags: ["Password"],
    access: ALL,
    user: "required",
    body: passwordSetBody,
    response: successJson,
    errors: [KnownErrors.PasswordAuthenticationNotEnabled, ...PASSWORD_RULES],
  }),
  passwordSendResetCode: defineEndpoint({
    method: "POST",
    path: "/auth/password/send-reset-code",
    summary: "Mail a password-reset link, if a user signs in with this e-mail",
    tags: ["Password"],
    access: ALL,
    body: mailCodeBody,
    response: resetCodeSentJson,
    errors: [KnownErrors.PasswordAuthenticationNotEnabled, KnownErrors.RedirectUrlNotWhitelisted],
  }),
  passwordResetCheckCode: defineEndpoint({
    method: "POST",
    path: "/auth/password/reset/check-code",
    summary: "Check a password-reset code without using it",
    tags: ["Password"],
    access: ALL,
    body: codeBody,
    response: codeCheckJson,
    errors: [KnownErrors.PasswordAuthenticationNotEnabled, ...CODE_ERRORS],
  }),
  passwordReset: defineEndpoint({
    method: "POST",
    path: "/auth/password/reset",
    summary: "Set a new password with a reset code; ends all the user's sessions",
    tags: ["Password"],
    access: ALL,
    body: passwordResetBody,
    response: successJson,
    errors: [KnownErrors.PasswordAuthenticationNotEnabled, ...PASSWORD_RULES, ...CODE_ERRORS],
  }),
  otpSendSignInCode: defineEndpoint({
    method: "POST",
    path: "/auth/otp/send-sign-in-code",
    summary: "Mail a sign-in code and link",
    tags: ["OTP"],
    access: ALL,
    body: otpSendSignInCodeBody,
    response: signInCodeSentJson,
    errors: [
      KnownErrors.RedirectUrlNotWhitelisted,
      KnownErrors.SignUpNotEnabled,
      KnownErrors.UserWithEmailAlreadyExists,
      KnownErrors.BotChallengeRequired,
      KnownErrors.BotChallengeFailed,
    ],
  }),
  otpSignIn: defineEndpoint({
    method: "POST",
    path: "/auth/otp/sign-in",
    summary: "Sign in (or up) with a mailed code",
    tags: ["OTP"],
    access: ALL,
    body: codeBody,
    response: codeSignInJson,
    errors: [
      ...CODE_ERRORS,
      KnownErrors.SignUpNotEnabled,
      KnownErrors.UserWithEmailAlreadyExists,
      KnownErrors.MultiFactorAuthenticationRequired,
    ],
  }),
  anonymousSignUp: defineEndpoint({
    method: "POST",
    path: "/auth/anonymous/sign-up",
    summary: "Create an anonymous user and sign them in",
    tags: ["Anonymous"],
    access: ALL,
    body: z.strictObject({}).optional(),
    response: signInTokensJson,
  }),
  oauthToken: defineEndpoint({
    method: "POST",
    path: "/auth/oauth/token",
    summary: "OAuth token endpoint (refresh_token and authorization_code grants), with form or JSON bodies",
    tags: ["OAuth"],
    access: "public",
    body: oauthTokenBody,
    response: oauthTokenJson,
    errors: [
      KnownErrors.InvalidOAuthClientIdOrSecret,
      KnownErrors.BranchDoesNotExist,
      KnownErrors.PublishableClientKeyRequiredForProject,
      KnownErrors.InvalidAuthorizationCode,
      KnownErrors.RefreshTokenNotFoundOrExpired,
      KnownErrors.MultiFactorAuthenticationRequired,
    ],
  }),
};
