import { profile, stringOf, type OAuthProviderDefinition, type ProviderUserInfo } from "../provider.ts";

export const apple: OAuthProviderDefinition = {
  id: "apple",
  endpoints: () => ({
    authorization: "https://appleid.apple.com/auth/authorize",
    token: "https://appleid.apple.com/auth/token",
    issuer: "https://appleid.apple.com",
    jwksUri: "https://appleid.apple.com/auth/keys",
  }),
  baseScopes: ["name", "email"],
  // Apple posts its answer as a form when scopes are asked for (the callback turns it into a GET).
  extraAuthorizationParams: () => ({ response_mode: "form_post" }),
  tokenEndpointAuth: "client_secret_post",
  pkce: true,
  // Apple has no user-info endpoint: the ID token (checked by openid-client) says who the user is.
  readsIdToken: true,
  userInfo: async ({ idTokenClaims }) => appleProfile(idTokenClaims ?? {}),
};

/** The claims of Apple's ID token; Apple sends `email_verified` as a boolean or as the string "true". */
export function appleProfile(claims: Record<string, unknown>): ProviderUserInfo {
  return profile({
    accountId: stringOf(claims.sub),
    email: stringOf(claims.email),
    emailVerified: claims.email_verified === true || claims.email_verified === "true",
    displayName: null,
    profileImageUrl: null,
  });
}
