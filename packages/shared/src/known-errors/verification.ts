import { defineKnownError, defineKnownErrorFamily } from "./base.ts";

/** Any problem with a one-time verification code (e-mail, reset, invitation, magic link). */
export const VerificationCodeError = defineKnownErrorFamily("VerificationCodeError");

export const VerificationCodeNotFound = defineKnownError(
  "VERIFICATION_CODE_NOT_FOUND",
  404,
  () => ({ message: "The verification code does not exist for this project. Check the link or request a new code." }),
  VerificationCodeError,
);

export const VerificationCodeExpired = defineKnownError(
  "VERIFICATION_CODE_EXPIRED",
  400,
  () => ({ message: "The verification code has expired. Request a new one." }),
  VerificationCodeError,
);

export const VerificationCodeAlreadyUsed = defineKnownError(
  "VERIFICATION_CODE_ALREADY_USED",
  409,
  () => ({ message: "The verification code has already been used. Request a new one if needed." }),
  VerificationCodeError,
);

export const VerificationCodeMaxAttemptsReached = defineKnownError(
  "VERIFICATION_CODE_MAX_ATTEMPTS_REACHED",
  400,
  () => ({ message: "Too many wrong attempts for this verification code. Request a new one." }),
  VerificationCodeError,
);

export const EmailAlreadyVerified = defineKnownError("EMAIL_ALREADY_VERIFIED", 409, () => ({
  message: "This e-mail address is already verified.",
}));

export const EmailNotAssociatedWithUser = defineKnownError("EMAIL_NOT_ASSOCIATED_WITH_USER", 400, () => ({
  message: "This e-mail address is not one of the user's contact channels.",
}));

export const EmailIsNotPrimaryEmail = defineKnownError("EMAIL_IS_NOT_PRIMARY_EMAIL", 400, (email: string, primaryEmail: string | null) => ({
  message: `The e-mail ${JSON.stringify(email)} is not the user's primary e-mail${primaryEmail === null ? " (the user has none)" : ` (${JSON.stringify(primaryEmail)} is)`}. Use the primary e-mail address.`,
  details: { email, primary_email: primaryEmail },
}));
