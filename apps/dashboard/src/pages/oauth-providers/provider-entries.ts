/**
 * A project's OAuth providers as config keys: each provider is an entry of
 * `auth.oauth.providers`, keyed by an id of the project's choosing (the
 * dashboard uses the provider's own id) and naming its provider in `type`.
 * Writing one entry leaves the others as they are.
 */
import type { CompleteConfig, ConfigOverride, OAuthProviderId } from "@latchkey/js";
import { serverUrl } from "../../lib/server-url.ts";

export interface ProviderEntry {
  type: "shared" | "standard";
  clientId?: string;
  /** A new secret, or the mask the project showed to keep the stored one. */
  clientSecret?: string;
  facebookConfigId?: string;
  microsoftTenantId?: string;
  appleBundleIds?: string[];
}

/** The keys of the config's entries for provider `id` (usually one, named after it). */
export function entryKeys(config: CompleteConfig, id: OAuthProviderId): string[] {
  return Object.entries(config.auth.oauth.providers)
    .filter(([, entry]) => entry.type === id)
    .map(([key]) => key);
}

/** The keys that turn provider `id` on with `entry` (replacing its entry whole), or off (every entry of it removed). */
export function providerOverride(config: CompleteConfig, id: OAuthProviderId, entry: ProviderEntry | null): ConfigOverride {
  const keys = entryKeys(config, id);
  if (!entry) return Object.fromEntries(keys.map((key) => [`auth.oauth.providers.${key}`, null]));
  const value: Record<string, unknown> = { type: id, isShared: entry.type === "shared", allowSignIn: true, allowConnectedAccounts: true };
  if (entry.type === "standard") {
    if (entry.clientId !== undefined) value.clientId = entry.clientId;
    if (entry.clientSecret !== undefined) value.clientSecret = entry.clientSecret;
    if (entry.facebookConfigId !== undefined) value.facebookConfigId = entry.facebookConfigId;
    if (entry.microsoftTenantId !== undefined) value.microsoftTenantId = entry.microsoftTenantId;
    if (entry.appleBundleIds !== undefined)
      value.appleBundles = Object.fromEntries(entry.appleBundleIds.map((bundleId, i) => [String(i), { bundleId }]));
  }
  return { [`auth.oauth.providers.${keys[0] ?? id}`]: value };
}

/** Where the provider sends people back after they sign in: what the provider's app settings must list. */
export function callbackUrl(id: OAuthProviderId): string {
  return `${serverUrl()}/api/v1/auth/oauth/callback/${id}`;
}
