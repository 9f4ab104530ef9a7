import { objectOf, profile, stringOf, type ProviderUserInfo } from "../provider.ts";

/** What the development OpenID provider (apps/dev-oidc-provider) is asked for, whichever provider it stands in for. */
export const MOCK_SCOPES = ["openid", "email", "profile", "offline_access"] as const;
/** Every client of the development OpenID provider authenticates with this secret. */
export const MOCK_CLIENT_SECRET = "MOCK-SERVER-SECRET";

/** The development provider's user info: its subject is the e-mail the developer typed, which counts as verified. */
export function mockProfile(json: unknown): ProviderUserInfo {
  const user = objectOf(json);
  const sub = stringOf(user.sub);
  return profile({
    accountId: sub,
    email: stringOf(user.email) ?? sub,
    emailVerified: true,
    displayName: stringOf(user.name),
    profileImageUrl: stringOf(user.picture),
  });
}
