import { objectOf, profile, stringOf, type OAuthAppSettings, type OAuthProviderDefinition, type ProviderUserInfo } from "../provider.ts";

export const ME_URL = "https://graph.microsoft.com/v1.0/me";

function tenantOf(settings: OAuthAppSettings): string {
  return settings.microsoftTenantId || "consumers";
}

export const microsoft: OAuthProviderDefinition = {
  id: "microsoft",
  endpoints(settings) {
    const tenant = tenantOf(settings);
    const base = `https://login.microsoftonline.com/${encodeURIComponent(tenant)}`;
    // No ID token is read (the profile comes from Graph), so the tenant's issuer is not needed: a
    // tenant configured by domain name, or "common"/"organizations", works as a tenant id does.
    return { authorization: `${base}/oauth2/v2.0/authorize`, token: `${base}/oauth2/v2.0/token` };
  },
  // Microsoft hands out refresh tokens (which connected accounts live on) only for offline_access.
  baseScopes: ["User.Read", "openid", "offline_access"],
  tokenEndpointAuth: "client_secret_basic",
  pkce: true,
  userInfo: async ({ api }) => microsoftProfile(await api.getJson(ME_URL)),
};

/** Microsoft Graph's /me. Microsoft does not say whether the address was verified. */
export function microsoftProfile(json: unknown): ProviderUserInfo {
  const user = objectOf(json);
  return profile({
    accountId: stringOf(user.id),
    email: stringOf(user.mail) ?? stringOf(user.userPrincipalName),
    emailVerified: false,
    displayName: stringOf(user.displayName),
    profileImageUrl: null,
  });
}
