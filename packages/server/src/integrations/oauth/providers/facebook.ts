import { StatusError } from "@latchkey/shared";
import { objectOf, profile, stringOf, type OAuthProviderDefinition, type ProviderUserInfo } from "../provider.ts";

export const ME_URL = "https://graph.facebook.com/v3.2/me?fields=id,name,email,picture.type(small)";

export const facebook: OAuthProviderDefinition = {
  id: "facebook",
  endpoints: () => ({
    authorization: "https://www.facebook.com/v20.0/dialog/oauth/",
    token: "https://graph.facebook.com/v20.0/oauth/access_token",
    issuer: "https://www.facebook.com",
    jwksUri: "https://www.facebook.com/.well-known/oauth/openid/jwks/",
  }),
  baseScopes: ["openid", "public_profile", "email"],
  extraAuthorizationParams: (settings): Record<string, string> =>
    settings.facebookConfigId ? { config_id: settings.facebookConfigId } : {},
  tokenEndpointAuth: "client_secret_basic",
  pkce: true,
  userInfo: async ({ api }) => facebookProfile(await api.getJson(ME_URL)),
};

/** The Graph API's /me. Facebook does not say whether the address was verified. */
export function facebookProfile(json: unknown): ProviderUserInfo {
  const user = objectOf(json);
  const email = stringOf(user.email);
  if (!email) {
    throw new StatusError(
      400,
      "Facebook did not return an e-mail address for this account. Add and confirm an e-mail address on Facebook, or grant the e-mail permission, then sign in again.",
    );
  }
  return profile({
    accountId: stringOf(user.id),
    email,
    emailVerified: false,
    displayName: stringOf(user.name),
    profileImageUrl: stringOf(objectOf(objectOf(user.picture).data).url),
  });
}
