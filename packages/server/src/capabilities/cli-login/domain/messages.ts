/**
 * The plain-text refusals of CLI login (400, no error code): the browser
 * page and the CLI show them as they are, so they say what to do next.
 */
export const CLI_AUTH_MESSAGES = {
  invalidLoginCode:
    "This CLI login link is not valid: it has expired, was already used, or was never issued. Start the login from the command line again.",
  refreshTokenRequired: "Completing a CLI login needs the confirming session's refresh_token.",
  invalidRefreshToken: "The refresh token is not valid or has expired. Sign in again, then confirm the CLI login.",
  refreshTokenOfOtherProject: "The refresh token belongs to another project or branch than this CLI login.",
  refreshTokenUserGone: "The user of this refresh token no longer exists.",
  invalidAnonRefreshToken: "The anonymous refresh token is not valid.",
  anonRefreshTokenOfOtherProject: "The anonymous refresh token belongs to another project or branch.",
  anonRefreshTokenExpired: "The anonymous refresh token has expired.",
  anonRefreshTokenUserGone: "The user of the anonymous refresh token no longer exists.",
  anonRefreshTokenNotAnonymous: "The anonymous refresh token does not belong to an anonymous user.",
  noAnonSession: "This CLI login has no anonymous session to take over (or it was already taken over).",
  anonSessionGone: "The CLI's anonymous session is no longer valid.",
} as const;
