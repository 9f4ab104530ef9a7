/**
 * The project's OAuth providers as a PATCH sends them. The list is written
 * whole, so changing one provider sends the others back as they are; their
 * client secrets are left out, which keeps the stored ones (the admin view
 * only ever shows them masked).
 */
import type { AdminProjectConfig, AdminProjectUpdateOptions, OAuthProviderId } from "@latchkey/js";
import { serverUrl } from "../../lib/server-url.ts";

export type ProviderConfig = AdminProjectConfig["oauthProviders"][number];
export type ProviderEntry = NonNullable<NonNullable<AdminProjectUpdateOptions["config"]>["oauthProviders"]>[number];

export function entryOf(provider: ProviderConfig): ProviderEntry {
  const { id, type, clientId, facebookConfigId, microsoftTenantId, appleBundleIds } = provider;
  return {
    id,
    type,
    ...(clientId !== undefined ? { clientId } : {}),
    ...(facebookConfigId !== undefined ? { facebookConfigId } : {}),
    ...(microsoftTenantId !== undefined ? { microsoftTenantId } : {}),
    ...(appleBundleIds !== undefined ? { appleBundleIds: [...appleBundleIds] } : {}),
  };
}

/** The list with `id` replaced by `entry`, or removed when `entry` is null. */
export function withProvider(providers: readonly ProviderConfig[], id: OAuthProviderId, entry: ProviderEntry | null): ProviderEntry[] {
  const others = providers.filter((p) => p.id !== id).map(entryOf);
  return entry ? [...others, entry] : others;
}

/** Where the provider sends people back after they sign in: what the provider's app settings must list. */
export function callbackUrl(id: OAuthProviderId): string {
  return `${serverUrl()}/api/v1/auth/oauth/callback/${id}`;
}
