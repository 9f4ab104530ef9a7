/**
 * The second step of a sign-in for users with two-factor on: every first
 * step (password, mailed code, passkey, OAuth) answers such a user with
 * MULTI_FACTOR_AUTHENTICATION_REQUIRED and an attempt code; this endpoint
 * takes that code and a current TOTP code and answers with the tokens.
 */
import { z } from "zod";
import { KnownErrors } from "../known-errors/index.ts";
import { verificationCodeSchema } from "../schema-fields.ts";
import { codeSignInJson } from "./auth.ts";
import { defineEndpoint } from "./endpoint.ts";

export const mfaSignInBody = z.strictObject({
  type: z.literal("totp"),
  /** The 6 digits the user's authenticator app shows. */
  totp: z.string(),
  /** The attempt code of MULTI_FACTOR_AUTHENTICATION_REQUIRED. */
  code: verificationCodeSchema,
});
export type MfaSignInBody = z.input<typeof mfaSignInBody>;

export const mfaEndpoints = {
  mfaSignIn: defineEndpoint({
    method: "POST",
    path: "/auth/mfa/sign-in",
    summary: "Finish a sign-in with a TOTP code",
    tags: ["MFA"],
    access: ["client", "server", "admin"],
    body: mfaSignInBody,
    response: codeSignInJson,
    errors: [
      KnownErrors.InvalidTotpCode,
      KnownErrors.VerificationCodeNotFound,
      KnownErrors.VerificationCodeExpired,
      KnownErrors.VerificationCodeAlreadyUsed,
      KnownErrors.VerificationCodeMaxAttemptsReached,
    ],
  }),
};
