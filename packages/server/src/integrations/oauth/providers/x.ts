import { objectOf, profile, stringOf, type OAuthProviderDefinition, type ProviderUserInfo } from "../provider.ts";

export const ME_URL = "https://api.x.com/2/users/me?user.fields=id,name,username,profile_image_url";

export const x: OAuthProviderDefinition = {
  id: "x",
  endpoints: () => ({ authorization: "https://twitter.com/i/oauth2/authorize", token: "https://api.x.com/2/oauth2/token" }),
  baseScopes: ["users.read", "offline.access", "tweet.read"],
  tokenEndpointAuth: "client_secret_basic",
  pkce: true,
  userInfo: async ({ api }) => xProfile(await api.getJson(ME_URL)),
};

/** X's /2/users/me. X gives no e-mail address. */
export function xProfile(json: unknown): ProviderUserInfo {
  const user = objectOf(objectOf(json).data);
  return profile({
    accountId: stringOf(user.id),
    email: null,
    emailVerified: false,
    displayName: stringOf(user.name) ?? stringOf(user.username),
    profileImageUrl: stringOf(user.profile_image_url),
  });
}
