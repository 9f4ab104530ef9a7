import { objectOf, profile, stringOf, type OAuthProviderDefinition, type ProviderUserInfo } from "../provider.ts";

export const USERS_URL = "https://api.twitch.tv/helix/users";

export const twitch: OAuthProviderDefinition = {
  id: "twitch",
  endpoints: () => ({ authorization: "https://id.twitch.tv/oauth2/authorize", token: "https://id.twitch.tv/oauth2/token" }),
  baseScopes: ["user:read:email"],
  tokenEndpointAuth: "client_secret_post",
  pkce: true,
  // Twitch lists the granted scopes as an array, where OAuth has a space-separated string.
  normalizeTokenResponse: (status, json) => ({
    status,
    json: Array.isArray(json.scope) ? { ...json, scope: json.scope.join(" ") } : json,
  }),
  // The Helix API wants the app's client id beside the user's token.
  userInfo: async ({ api, settings }) => twitchProfile(await api.getJson(USERS_URL, { "client-id": settings.clientId })),
};

/** Twitch's /helix/users (the token's user); Twitch only hands out verified addresses. */
export function twitchProfile(json: unknown): ProviderUserInfo {
  const data = objectOf(json).data;
  const user = objectOf(Array.isArray(data) ? data[0] : undefined);
  const email = stringOf(user.email);
  return profile({
    accountId: stringOf(user.id),
    email,
    emailVerified: email !== null,
    displayName: stringOf(user.display_name),
    profileImageUrl: stringOf(user.profile_image_url),
  });
}
