import { defineKnownError, defineKnownErrorFamily } from "./base.ts";

/** A password that breaks a rule: too short, too long. */
export const PasswordRequirementsNotMet = defineKnownErrorFamily("PasswordRequirementsNotMet");

export const EmailPasswordMismatch = defineKnownError("EMAIL_PASSWORD_MISMATCH", 400, () => ({
  message: "Wrong e-mail or password.",
}));

/** Names no URL: clients of the official product read no details on it. */
export const RedirectUrlNotWhitelisted = defineKnownError("REDIRECT_URL_NOT_WHITELISTED", 400, () => ({
  message: "The redirect URL is not one of the project's trusted domains. Add it in the project's domain settings.",
}));

export const PasswordTooShort = defineKnownError(
  "PASSWORD_TOO_SHORT",
  400,
  (minLength: number) => ({
    message: `Password too short. Minimum length is ${minLength}.`,
    details: { min_length: minLength },
  }),
  PasswordRequirementsNotMet,
);

export const PasswordTooLong = defineKnownError(
  "PASSWORD_TOO_LONG",
  400,
  (maxLength: number) => ({
    message: `Password too long. Maximum length is ${maxLength}.`,
    details: { maxLength },
  }),
  PasswordRequirementsNotMet,
);

export const PasswordConfirmationMismatch = defineKnownError("PASSWORD_CONFIRMATION_MISMATCH", 400, () => ({
  message: "Passwords do not match.",
}));

export const MultiFactorAuthenticationRequired = defineKnownError("MULTI_FACTOR_AUTHENTICATION_REQUIRED", 400, (attemptCode: string) => ({
  message: "This user has multi-factor authentication on: complete the sign-in with a one-time password.",
  details: { attempt_code: attemptCode },
}));

export const InvalidTotpCode = defineKnownError("INVALID_TOTP_CODE", 400, () => ({
  message: "The one-time password is not valid.",
}));
