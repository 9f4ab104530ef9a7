import { objectOf, profile, stringOf, type OAuthProviderDefinition, type ProviderUserInfo } from "../provider.ts";

export const ME_URL = "https://discord.com/api/users/@me";

export const discord: OAuthProviderDefinition = {
  id: "discord",
  endpoints: () => ({ authorization: "https://discord.com/oauth2/authorize", token: "https://discord.com/api/oauth2/token" }),
  baseScopes: ["identify", "email"],
  tokenEndpointAuth: "client_secret_basic",
  pkce: true,
  userInfo: async ({ api }) => discordProfile(await api.getJson(ME_URL)),
};

/** Discord's /users/@me; the avatar is a hash on Discord's CDN (animated ones start with `a_`). */
export function discordProfile(json: unknown): ProviderUserInfo {
  const user = objectOf(json);
  const id = stringOf(user.id);
  const avatar = stringOf(user.avatar);
  return profile({
    accountId: id,
    email: stringOf(user.email),
    emailVerified: user.verified === true,
    displayName: stringOf(user.global_name) ?? stringOf(user.username),
    profileImageUrl: id && avatar ? `https://cdn.discordapp.com/avatars/${id}/${avatar}.${avatar.startsWith("a_") ? "gif" : "png"}` : null,
  });
}
