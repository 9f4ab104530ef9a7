/**
 * A project's OAuth providers: the entries of its config (`oauth_providers`),
 * each `standard` (the project's own OAuth app, credentials in the entry) or
 * `shared` (the operator's app, credentials from the environment; or the
 * development provider when those are `MOCK`).
 */
import { KnownErrors, type OAuthProviderId } from "@latchkey/shared";
import type { ServerConfig } from "../../../config.ts";
import { OAuthProviderClient, type ProviderConnection } from "../../../integrations/oauth/client.ts";
import { isUsableOAuthProvider, type OAuthProviderConfig, type ProjectConfig } from "../../projects/config.ts";
import { openClientSecret } from "../../projects/oauth-secrets.ts";
import type { Clock } from "../../../lib/clock.ts";

export interface EnabledProvider {
  id: OAuthProviderId;
  /** The project's entry; its id is the provider config id accounts are stored under. */
  entry: OAuthProviderConfig;
  shared: boolean;
  connection: ProviderConnection;
}

/** The project's provider `providerId`, ready to connect; OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED when it cannot be used. */
export function enabledProvider(
  config: ServerConfig,
  projectConfig: Pick<ProjectConfig, "oauth_providers">,
  providerId: string,
): EnabledProvider {
  const entry = projectConfig.oauth_providers.find((p) => p.id === providerId);
  // A shared entry without the operator's keys (STACK_<PROVIDER>_CLIENT_ID unset) is, to the app, not available.
  if (!entry || !isUsableOAuthProvider(entry, config.sharedOAuthCredentials)) throw new KnownErrors.OAuthProviderNotFoundOrNotEnabled();
  if (entry.type === "standard") {
    // isUsableOAuthProvider has checked that the entry has both.
    return {
      id: entry.id,
      entry,
      shared: false,
      connection: {
        kind: "app",
        settings: {
          clientId: entry.client_id!,
          clientSecret: openClientSecret(config.serverSecret, entry.client_secret!),
          facebookConfigId: entry.facebook_config_id,
          microsoftTenantId: entry.microsoft_tenant_id,
        },
      },
    };
  }
  const credentials = config.sharedOAuthCredentials[entry.id]!;
  const connection: ProviderConnection =
    credentials.kind === "mock"
      ? { kind: "mock", mockUrl: config.oauthMockUrl! }
      : { kind: "app", settings: { clientId: credentials.clientId, clientSecret: credentials.clientSecret } };
  return { id: entry.id, entry, shared: true, connection };
}

export function connectProvider(provider: EnabledProvider, clock: Clock): Promise<OAuthProviderClient> {
  return OAuthProviderClient.connect(provider.id, provider.connection, clock);
}

/** Our callback, which the provider sends the browser back to (registered with the provider's app). */
export function providerCallbackUrl(config: Pick<ServerConfig, "apiUrl">, providerId: string): string {
  return `${config.apiUrl}/api/v1/auth/oauth/callback/${providerId}`;
}

/** The scopes a sign-in asks for: the provider's own, and the app's extra ones (space-separated). */
export function requestedScopes(baseScopes: readonly string[], providerScope: string | null): string[] {
  const extra = (providerScope ?? "").split(/\s+/).filter(Boolean);
  return [...new Set([...baseScopes, ...extra])];
}
