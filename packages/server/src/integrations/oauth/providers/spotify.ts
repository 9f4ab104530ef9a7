import { objectOf, profile, stringOf, type OAuthProviderDefinition, type ProviderUserInfo } from "../provider.ts";

export const ME_URL = "https://api.spotify.com/v1/me";

export const spotify: OAuthProviderDefinition = {
  id: "spotify",
  endpoints: () => ({ authorization: "https://accounts.spotify.com/authorize", token: "https://accounts.spotify.com/api/token" }),
  baseScopes: ["user-read-email", "user-read-private"],
  tokenEndpointAuth: "client_secret_basic",
  pkce: true,
  userInfo: async ({ api }) => spotifyProfile(await api.getJson(ME_URL)),
};

/** Spotify's /v1/me. Spotify does not verify e-mail addresses. */
export function spotifyProfile(json: unknown): ProviderUserInfo {
  const user = objectOf(json);
  const images = Array.isArray(user.images) ? user.images : [];
  return profile({
    accountId: stringOf(user.id),
    email: stringOf(user.email),
    emailVerified: false,
    displayName: stringOf(user.display_name),
    profileImageUrl: stringOf(objectOf(images[0]).url),
  });
}
