import { objectOf, profile, stringOf, type OAuthProviderDefinition, type ProviderUserInfo } from "../provider.ts";

export const USER_URL = "https://api.bitbucket.org/2.0/user";
export const EMAILS_URL = "https://api.bitbucket.org/2.0/user/emails";

export const bitbucket: OAuthProviderDefinition = {
  id: "bitbucket",
  endpoints: () => ({
    authorization: "https://bitbucket.org/site/oauth2/authorize",
    token: "https://bitbucket.org/site/oauth2/access_token",
  }),
  baseScopes: ["account", "email"],
  tokenEndpointAuth: "client_secret_basic",
  pkce: true,
  userInfo: async ({ api }) => bitbucketProfile(await api.getJson(USER_URL), await api.getJson(EMAILS_URL)),
};

/** Bitbucket's /2.0/user and its paged /2.0/user/emails: the primary address (else the first). */
export function bitbucketProfile(userJson: unknown, emailsJson: unknown): ProviderUserInfo {
  const user = objectOf(userJson);
  const values = objectOf(emailsJson).values;
  const emails = (Array.isArray(values) ? values : []).map(objectOf);
  const chosen = emails.find((e) => e.is_primary === true) ?? emails[0];
  return profile({
    accountId: stringOf(user.account_id),
    email: stringOf(chosen?.email),
    emailVerified: chosen?.is_confirmed === true,
    displayName: stringOf(user.display_name),
    profileImageUrl: stringOf(objectOf(objectOf(user.links).avatar).href),
  });
}
