import { objectOf, profile, stringOf, type OAuthAppSettings, type OAuthProviderDefinition, type ProviderUserInfo } from "../provider.ts";

export const ME_URL = "https://graph.microsoft.com/v1.0/me";
/** The tenant of personal Microsoft accounts: what `consumers` tokens name as their issuer. */
const CONSUMERS_TENANT_ID = "9188040d-6c67-4c5b-b112-36a304b66dad";
const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function tenantOf(settings: OAuthAppSettings): string {
  return settings.microsoftTenantId || "consumers";
}

export const microsoft: OAuthProviderDefinition = {
  id: "microsoft",
  endpoints(settings) {
    const tenant = tenantOf(settings);
    const base = `https://login.microsoftonline.com/${encodeURIComponent(tenant)}`;
    // ID tokens name the tenant by its id. A tenant configured by domain name (or the
    // multi-tenant "common"/"organizations") has an issuer only the token itself tells.
    const issuerTenant = tenant === "consumers" ? CONSUMERS_TENANT_ID : GUID.test(tenant) ? tenant.toLowerCase() : "{tenantid}";
    return {
      authorization: `${base}/oauth2/v2.0/authorize`,
      token: `${base}/oauth2/v2.0/token`,
      issuer: `https://login.microsoftonline.com/${issuerTenant}/v2.0`,
      jwksUri: `${base}/discovery/v2.0/keys`,
    };
  },
  baseScopes: ["User.Read", "openid"],
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
