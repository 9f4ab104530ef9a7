/**
 * A project's OAuth providers: the entries of its config (`oauth_providers`),
 * each `standard` (the project's own OAuth app, credentials in the entry) or
 * `shared` (the operator's app, credentials from the environment; or the
 * development provider when those are `MOCK`).
 */
import { KnownErrors, StatusError, type OAuthProviderId } from "@latchkey/shared";
import type { ServerConfig } from "../../../config.ts";
import { OAuthProviderClient, providerFailureKind, type ProviderConnection } from "../../../integrations/oauth/client.ts";
import { isUsableOAuthProvider, type OAuthProviderConfig, type ProjectConfig } from "../../projects/config.ts";
import { openClientSecret } from "../../projects/oauth-secrets.ts";
import type { Clock } from "../../../lib/clock.ts";

export interface EnabledProvider {
  id: OAuthProviderId;
  /** The project's entry; its id is the provider config id accounts are stored under. */
  entry: OAuthProviderConfig;
  shared: boolean;
  connection: ProviderConnection;
  /** How long each request to the provider may take (ServerConfig.oauthProviderTimeoutMillis). */
  timeoutMillis: number;
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
      timeoutMillis: config.oauthProviderTimeoutMillis,
    };
  }
  const credentials = config.sharedOAuthCredentials[entry.id]!;
  const connection: ProviderConnection =
    credentials.kind === "mock"
      ? { kind: "mock", mockUrl: config.oauthMockUrl! }
      : { kind: "app", settings: { clientId: credentials.clientId, clientSecret: credentials.clientSecret } };
  return { id: entry.id, entry, shared: true, connection, timeoutMillis: config.oauthProviderTimeoutMillis };
}

export function connectProvider(provider: EnabledProvider, clock: Clock): Promise<OAuthProviderClient> {
  return OAuthProviderClient.connect(provider.id, provider.connection, clock, provider.timeoutMillis);
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

export const INVALID_CALLBACK_MESSAGE = "The OAuth provider's answer could not be verified. Please try signing in again.";

/** What the user is told when the provider refused or failed; anything unforeseen stays a server error. */
export function providerFailure(error: unknown): unknown {
  switch (providerFailureKind(error)) {
    case "access_denied":
      return new KnownErrors.OAuthProviderAccessDenied();
    case "invalid_grant":
      // Also a code used twice, or sent to another provider's callback.
      return new StatusError(400, "Inner OAuth callback failed due to invalid grant. Please try again.");
    case "invalid_client":
      return new StatusError(
        400,
        "Invalid client credentials for this OAuth provider. Please ensure the provider's client id and secret in the Latchkey dashboard are correct.",
      );
    case "invalid_scope":
      return new StatusError(
        400,
        "The OAuth provider does not allow the requested scopes. Please ensure the extra scopes are allowed for this provider's app.",
      );
    case "invalid_callback":
      return new StatusError(400, INVALID_CALLBACK_MESSAGE);
    case "unavailable":
      return new KnownErrors.OAuthProviderTemporarilyUnavailable();
    case null:
      return error;
  }
}
