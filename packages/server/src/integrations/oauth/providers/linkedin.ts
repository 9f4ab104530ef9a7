import { openIdProfile, type OAuthProviderDefinition } from "../provider.ts";

export const USERINFO_URL = "https://api.linkedin.com/v2/userinfo";

export const linkedin: OAuthProviderDefinition = {
  id: "linkedin",
  endpoints: () => ({
    authorization: "https://www.linkedin.com/oauth/v2/authorization",
    token: "https://www.linkedin.com/oauth/v2/accessToken",
    issuer: "https://www.linkedin.com/oauth",
    jwksUri: "https://www.linkedin.com/oauth/openid/jwks",
  }),
  baseScopes: ["openid", "profile", "email"],
  tokenEndpointAuth: "client_secret_post",
  // LinkedIn refuses PKCE for web apps with a client secret.
  pkce: false,
  userInfo: async ({ api }) => linkedinProfile(await api.getJson(USERINFO_URL)),
};

/** LinkedIn's user info is standard OpenID. */
export const linkedinProfile = openIdProfile;
