import { defineKnownError } from "./base.ts";

export const OAuthConnectionNotConnectedToUser = defineKnownError("OAUTH_CONNECTION_NOT_CONNECTED_TO_USER", 400, () => ({
  message: "The user has no connected account for this OAuth provider. Connect it first.",
}));

export const OAuthConnectionAlreadyConnectedToAnotherUser = defineKnownError(
  "OAUTH_CONNECTION_ALREADY_CONNECTED_TO_ANOTHER_USER",
  409,
  () => ({ message: "This OAuth account is already connected to another user." }),
);

export const OAuthConnectionDoesNotHaveRequiredScope = defineKnownError("OAUTH_CONNECTION_DOES_NOT_HAVE_REQUIRED_SCOPE", 400, () => ({
  message: "The connected OAuth account was not granted all the required scopes. Connect it again, asking for those scopes.",
}));

export const OAuthExtraScopeNotAvailableWithSharedOAuthKeys = defineKnownError(
  "OAUTH_EXTRA_SCOPE_NOT_AVAILABLE_WITH_SHARED_OAUTH_KEYS",
  400,
  () => ({
    message: "Extra OAuth scopes are not available with the shared OAuth keys. Configure your own client id and secret for this provider.",
  }),
);

export const OAuthAccessTokenNotAvailableWithSharedOAuthKeys = defineKnownError(
  "OAUTH_ACCESS_TOKEN_NOT_AVAILABLE_WITH_SHARED_OAUTH_KEYS",
  400,
  () => ({
    message:
      "Provider access tokens are not available with the shared OAuth keys. Configure your own client id and secret for this provider.",
  }),
);

export const InvalidOAuthClientIdOrSecret = defineKnownError(
  "INVALID_OAUTH_CLIENT_ID_OR_SECRET",
  400,
  (clientId: string | null = null) => ({
    message: `The OAuth client id${clientId === null ? "" : ` ${JSON.stringify(clientId)}`} or client secret is not valid.`,
    details: { client_id: clientId },
  }),
);

export const InvalidScope = defineKnownError("INVALID_SCOPE", 400, (scope: string) => ({
  message: `The scope ${JSON.stringify(scope)} is not a valid OAuth scope here.`,
}));

export const UserAlreadyConnectedToAnotherOAuthConnection = defineKnownError(
  "USER_ALREADY_CONNECTED_TO_ANOTHER_OAUTH_CONNECTION",
  409,
  () => ({ message: "The user is already connected to another account of this OAuth provider." }),
);

export const OuterOAuthTimeout = defineKnownError("OUTER_OAUTH_TIMEOUT", 408, () => ({
  message: "The OAuth flow has timed out. Please sign in again.",
}));

export const OAuthProviderNotFoundOrNotEnabled = defineKnownError("OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED", 400, () => ({
  message: "This OAuth provider does not exist or is not enabled for this project.",
}));

export const OAuthProviderAccountIdAlreadyUsedForSignIn = defineKnownError(
  "OAUTH_PROVIDER_ACCOUNT_ID_ALREADY_USED_FOR_SIGN_IN",
  400,
  () => ({
    message: "This provider account is already used for sign-in by another OAuth provider entry. Turn off sign-in on one of them.",
  }),
);

export const InvalidSharedOAuthProviderId = defineKnownError("INVALID_SHARED_OAUTH_PROVIDER_ID", 400, (providerId: string) => ({
  message: `${JSON.stringify(providerId)} is not a provider that supports shared OAuth keys.`,
  details: { provider_id: providerId },
}));

export const InvalidStandardOAuthProviderId = defineKnownError("INVALID_STANDARD_OAUTH_PROVIDER_ID", 400, (providerId: string) => ({
  message: `${JSON.stringify(providerId)} is not a supported OAuth provider.`,
  details: { provider_id: providerId },
}));

export const InvalidAuthorizationCode = defineKnownError("INVALID_AUTHORIZATION_CODE", 400, () => ({
  message: "The authorization code is not valid, has expired or was already used. Start the sign-in again.",
}));

export const OAuthProviderTemporarilyUnavailable = defineKnownError("OAUTH_PROVIDER_TEMPORARILY_UNAVAILABLE", 503, () => ({
  message: "The OAuth provider is temporarily unavailable. Please try signing in again.",
}));

export const OAuthProviderAccessDenied = defineKnownError("OAUTH_PROVIDER_ACCESS_DENIED", 400, () => ({
  message: "The OAuth provider denied access: the user cancelled or did not grant the requested permissions.",
}));

export const ContactChannelAlreadyUsedForAuthBySomeoneElse = defineKnownError(
  "CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE",
  409,
  (type: string, contactChannelValue: string | null = null, wouldWorkIfEmailWasVerified: boolean = false) => ({
    message: `This ${type}${contactChannelValue === null ? "" : ` (${JSON.stringify(contactChannelValue)})`} is already used for sign-in by another account${
      wouldWorkIfEmailWasVerified
        ? ", which has not verified it yet. Sign in to that account the way you signed up, verify the address, then use this sign-in method again."
        : ". Use another address, or sign in to that account instead."
    }`,
    details: {
      type,
      contact_channel_value: contactChannelValue,
      would_work_if_email_was_verified: wouldWorkIfEmailWasVerified,
    },
  }),
);

/** An ID token (native Sign in with Apple) that is not signed by the provider, not for this app, or expired. */
export const InvalidIdToken = defineKnownError("INVALID_ID_TOKEN", 400, () => ({
  message: "The ID token is invalid: it is not signed by the provider, not issued for this app, or has expired.",
}));
