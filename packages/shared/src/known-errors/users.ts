import { defineKnownError } from "./base.ts";

export const UserWithEmailAlreadyExists = defineKnownError(
  "USER_EMAIL_ALREADY_EXISTS",
  409,
  // Addresses match case-insensitively, so the one named is lower-cased: whichever spelling was sent, the same answer.
  (email: string, wouldWorkIfEmailWasVerified: boolean = false) => ({
    message: `A user with the e-mail ${JSON.stringify(email.toLowerCase())} already exists${wouldWorkIfEmailWasVerified ? " (this would work if the e-mail were verified)" : ""}.`,
    details: { email: email.toLowerCase(), would_work_if_email_was_verified: wouldWorkIfEmailWasVerified },
  }),
);
/** The name the official SDKs use for the same error. */
export const UserEmailAlreadyExists = UserWithEmailAlreadyExists;

export const EmailNotVerified = defineKnownError("EMAIL_NOT_VERIFIED", 400, () => ({
  message: "The e-mail address is not verified.",
}));

export const CannotGetOwnUserWithoutUser = defineKnownError("CANNOT_GET_OWN_USER_WITHOUT_USER", 400, () => ({
  message: "You specified 'me' as a user id, but no user is signed in on this request.",
}));

export const UserIdDoesNotExist = defineKnownError("USER_ID_DOES_NOT_EXIST", 400, (userId: string) => ({
  message: `There is no user with id ${JSON.stringify(userId)} in this project.`,
  details: { user_id: userId },
}));

export const UserNotFound = defineKnownError("USER_NOT_FOUND", 404, () => ({
  message: "User not found.",
}));

export const UserAuthenticationRequired = defineKnownError("USER_AUTHENTICATION_REQUIRED", 401, () => ({
  message: "This endpoint needs a signed-in user: send their access token in the x-stack-access-token header.",
}));

export const UserDoesNotHavePassword = defineKnownError("USER_DOES_NOT_HAVE_PASSWORD", 400, () => ({
  message: "This user has no password set. Set one first.",
}));
