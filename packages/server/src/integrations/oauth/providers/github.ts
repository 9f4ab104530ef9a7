import { StatusError } from "@latchkey/shared";
import { idOf, objectOf, profile, ProviderHttpError, stringOf, type OAuthProviderDefinition, type ProviderUserInfo } from "../provider.ts";

const API_HEADERS = { "x-github-api-version": "2022-11-28", accept: "application/vnd.github+json" };
export const USER_URL = "https://api.github.com/user";
export const EMAILS_URL = "https://api.github.com/user/emails";

export const github: OAuthProviderDefinition = {
  id: "github",
  endpoints: () => ({
    authorization: "https://github.com/login/oauth/authorize",
    token: "https://github.com/login/oauth/access_token",
  }),
  baseScopes: ["user:email"],
  tokenEndpointAuth: "client_secret_basic",
  pkce: true,
  // GitHub Apps' user tokens expire after 8 hours and the token response may not say so.
  defaultAccessTokenLifetimeSeconds: 8 * 3600,
  // GitHub reports a bad code with status 200 and an `error` field.
  normalizeTokenResponse: (status, json) => ({ status: status === 200 && typeof json.error === "string" ? 400 : status, json }),
  async userInfo({ api }) {
    const user = await api.getJson(USER_URL, API_HEADERS);
    let emails: unknown;
    try {
      emails = await api.getJson(EMAILS_URL, API_HEADERS);
    } catch (error) {
      // A GitHub App without the e-mail permission gets 403 here.
      if (error instanceof ProviderHttpError && error.status === 403) {
        throw new StatusError(
          400,
          'GitHub did not let Latchkey read the account\'s e-mail addresses. Give the GitHub app the "Email addresses" (read-only) account permission, then sign in again.',
        );
      }
      throw error;
    }
    return githubProfile(user, emails);
  },
};

/** GET /user and GET /user/emails: the primary address, verified as GitHub says. */
export function githubProfile(userJson: unknown, emailsJson: unknown): ProviderUserInfo {
  const user = objectOf(userJson);
  const primary = (Array.isArray(emailsJson) ? emailsJson : []).map(objectOf).find((entry) => entry.primary === true);
  return profile({
    accountId: idOf(user.id),
    email: stringOf(primary?.email),
    emailVerified: primary?.verified === true,
    displayName: stringOf(user.name),
    profileImageUrl: stringOf(user.avatar_url),
  });
}
