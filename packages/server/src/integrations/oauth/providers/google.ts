import { openIdProfile, type OAuthProviderDefinition } from "../provider.ts";

export const USERINFO_URL = "https://openidconnect.googleapis.com/v1/userinfo";

export const google: OAuthProviderDefinition = {
  id: "google",
  endpoints: () => ({
    authorization: "https://accounts.google.com/o/oauth2/v2/auth",
    token: "https://oauth2.googleapis.com/token",
    issuer: "https://accounts.google.com",
    jwksUri: "https://www.googleapis.com/oauth2/v3/certs",
  }),
  baseScopes: ["https://www.googleapis.com/auth/userinfo.email", "https://www.googleapis.com/auth/userinfo.profile"],
  // Scopes granted earlier stay granted, so asking for more later does not drop them.
  extraAuthorizationParams: () => ({ include_granted_scopes: "true" }),
  tokenEndpointAuth: "client_secret_basic",
  pkce: true,
  userInfo: async ({ api }) => googleProfile(await api.getJson(USERINFO_URL)),
};

/** Google's user info is standard OpenID. */
export const googleProfile = openIdProfile;
