import { idOf, objectOf, profile, stringOf, type OAuthProviderDefinition, type ProviderUserInfo } from "../provider.ts";

export const USER_URL = "https://gitlab.com/api/v4/user";
export const EMAILS_URL = "https://gitlab.com/api/v4/user/emails";

export const gitlab: OAuthProviderDefinition = {
  id: "gitlab",
  endpoints: () => ({ authorization: "https://gitlab.com/oauth/authorize", token: "https://gitlab.com/oauth/token" }),
  baseScopes: ["read_user"],
  tokenEndpointAuth: "client_secret_basic",
  pkce: true,
  userInfo: async ({ api }) => gitlabProfile(await api.getJson(USER_URL), await api.getJson(EMAILS_URL)),
};

/** GitLab's /user, and /user/emails for whether that address is confirmed. */
export function gitlabProfile(userJson: unknown, emailsJson: unknown): ProviderUserInfo {
  const user = objectOf(userJson);
  const email = stringOf(user.email);
  const entry = (Array.isArray(emailsJson) ? emailsJson : []).map(objectOf).find((e) => email !== null && e.email === email);
  return profile({
    accountId: idOf(user.id),
    email,
    emailVerified: stringOf(entry?.confirmed_at) !== null,
    displayName: stringOf(user.name),
    profileImageUrl: stringOf(user.avatar_url),
  });
}
