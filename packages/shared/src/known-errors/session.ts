import { defineKnownError, defineKnownErrorFamily } from "./base.ts";

/** The access token cannot be used: the client marks it expired and retries. */
export const InvalidAccessToken = defineKnownErrorFamily("InvalidAccessToken");

/**
 * `issuers`: given when the token is this server's own, but issued under another public address (a replica
 * with another LATCHKEY_API_URL): the expected and the received issuer's base address. The code stays the
 * same, so clients refresh and retry as for any token they cannot use.
 */
export const UnparsableAccessToken = defineKnownError(
  "UNPARSABLE_ACCESS_TOKEN",
  401,
  (issuers?: { expected: string; received: string }) => ({
    message: issuers
      ? `The access token was issued for another API URL: ${issuers.received}, not this server's ${issuers.expected}. Every replica must share one LATCHKEY_API_URL; refresh the token and try again.`
      : "The access token is not a valid token.",
  }),
  InvalidAccessToken,
);

export const AccessTokenExpired = defineKnownError(
  "ACCESS_TOKEN_EXPIRED",
  401,
  (expiredAt: Date | null, projectId: string | null = null, userId: string | null = null, refreshTokenId: string | null = null) => ({
    message: `The access token has expired${expiredAt ? ` (at ${expiredAt.toISOString()})` : ""}. Refresh it and try again.`,
    details: {
      expired_at_millis: expiredAt?.getTime() ?? null,
      project_id: projectId,
      user_id: userId,
      refresh_token_id: refreshTokenId,
    },
  }),
  InvalidAccessToken,
);

export const InvalidProjectForAccessToken = defineKnownError(
  "INVALID_PROJECT_FOR_ACCESS_TOKEN",
  401,
  (expectedProjectId: string, actualProjectId: string) => ({
    message: `The access token was issued for project ${JSON.stringify(actualProjectId)}, but this request is for project ${JSON.stringify(expectedProjectId)}.`,
    details: { expected_project_id: expectedProjectId, actual_project_id: actualProjectId },
  }),
  InvalidAccessToken,
);

export const RefreshTokenNotFoundOrExpired = defineKnownError("REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED", 401, () => ({
  message: "The refresh token does not exist, has expired or was revoked. Sign in again.",
}));

export const CannotDeleteCurrentSession = defineKnownError("CANNOT_DELETE_CURRENT_SESSION", 400, () => ({
  message: "The current session cannot be deleted this way: sign out instead (DELETE /auth/sessions/current).",
}));

export const ProviderRejected = defineKnownError("PROVIDER_REJECTED", 401, () => ({
  message: "The identity provider rejected the request. The user must sign in again.",
}));

export const AnonymousAuthenticationNotAllowed = defineKnownError("ANONYMOUS_AUTHENTICATION_NOT_ALLOWED", 401, () => ({
  message:
    "The access token belongs to an anonymous user, and this request does not accept anonymous users. Send x-stack-allow-anonymous-user: true to allow them.",
}));

export const RestrictedUserNotAllowed = defineKnownError("RESTRICTED_USER_NOT_ALLOWED", 403, (restrictedReason: { type: string }) => ({
  message: `The user is restricted (${restrictedReason.type}), and this request does not accept restricted users. Send x-stack-allow-restricted-user: true to allow them.`,
  details: { restricted_reason: restrictedReason },
}));
