/**
 * Talking to an OAuth provider, on openid-client: the authorization URL
 * (PKCE S256 and state), the code exchange (state, PKCE and, for OpenID
 * providers, ID-token checks), and the user's profile. Real providers are
 * described by static metadata (providers/*.ts); the development provider
 * (`MOCK` credentials) is found by OpenID discovery at its URL.
 */
import type { OAuthProviderId } from "@latchkey/shared";
import * as oidc from "openid-client";
import { MOCK_CLIENT_SECRET, MOCK_SCOPES, mockProfile } from "./providers/mock.ts";
import {
  ProviderHttpError,
  tokenAnswerFix,
  type OAuthAppSettings,
  type OAuthProviderDefinition,
  type ProviderUserInfo,
} from "./provider.ts";
import { OAUTH_PROVIDERS } from "./registry.ts";
import type { Clock } from "../../lib/clock.ts";

/** The provider's own OAuth app (ours or the project's), or the development provider at `mockUrl`. */
export type ProviderConnection = { kind: "app"; settings: OAuthAppSettings } | { kind: "mock"; mockUrl: string };

/**
 * The provider sent the browser back with an answer that fails the protocol's
 * checks (an issuer missing or not the provider's, a state repeated): nothing
 * was asked of the provider, and asking again would not help.
 */
export class InvalidProviderCallback extends Error {}

export interface ProviderTokenSet {
  accessToken: string;
  refreshToken: string | null;
  expiresAt: Date;
}

export interface ProviderSignIn {
  profile: ProviderUserInfo;
  tokens: ProviderTokenSet;
}

/** When neither the token response nor the provider says how long an access token lives. */
const DEFAULT_ACCESS_TOKEN_LIFETIME_SECONDS = 3600;

export class OAuthProviderClient {
  private constructor(
    readonly id: OAuthProviderId,
    /** null: the development provider, which stands in for `id`. */
    private readonly definition: OAuthProviderDefinition | null,
    private readonly settings: OAuthAppSettings,
    private readonly configuration: oidc.Configuration,
    /** Dates the tokens' expiry (lib/clock.ts). */
    private readonly clock: Clock,
  ) {}

  /** `timeoutMillis`: how long each request to the provider may take (discovery included) before it counts as unavailable. */
  static async connect(
    id: OAuthProviderId,
    connection: ProviderConnection,
    clock: Clock,
    timeoutMillis: number,
  ): Promise<OAuthProviderClient> {
    // openid-client counts in seconds; fractions are kept.
    const timeoutSeconds = timeoutMillis / 1000;
    if (connection.kind === "mock") {
      const settings = { clientId: id, clientSecret: MOCK_CLIENT_SECRET };
      return new OAuthProviderClient(id, null, settings, await discoverMock(connection.mockUrl, id, timeoutSeconds), clock);
    }
    const definition = OAUTH_PROVIDERS[id];
    return new OAuthProviderClient(
      id,
      definition,
      connection.settings,
      staticConfiguration(definition, connection.settings, timeoutSeconds),
      clock,
    );
  }

  /** What every sign-in asks for; a project's extra scopes come on top. */
  get baseScopes(): readonly string[] {
    return this.definition ? this.definition.baseScopes : MOCK_SCOPES;
  }

  /** Where to send the browser; `codeVerifier` stays on the server for the exchange. */
  async authorizationUrl(input: { redirectUri: string; state: string; codeVerifier: string; scopes: readonly string[] }): Promise<URL> {
    const params: Record<string, string> = {
      redirect_uri: input.redirectUri,
      scope: input.scopes.join(" "),
      response_type: "code",
      state: input.state,
      // A refresh token (connected accounts), and one every time: providers hand it out only on consent.
      access_type: "offline",
      prompt: "consent",
      ...this.definition?.extraAuthorizationParams?.(this.settings),
    };
    if (this.definition?.pkce !== false) {
      params.code_challenge = await oidc.calculatePKCECodeChallenge(input.codeVerifier);
      params.code_challenge_method = "S256";
    }
    return oidc.buildAuthorizationUrl(this.configuration, params);
  }

  /**
   * Exchanges the code the provider sent to `callbackUrl` (our callback URL
   * with the provider's query), then reads the user's profile. Throws
   * openid-client's errors (see providerFailureKind).
   */
  async signIn(callbackUrl: URL, checks: { state: string; codeVerifier: string }): Promise<ProviderSignIn> {
    let tokens;
    try {
      tokens = await oidc.authorizationCodeGrant(this.configuration, callbackUrl, {
        expectedState: checks.state,
        ...(this.definition?.pkce !== false ? { pkceCodeVerifier: checks.codeVerifier } : {}),
      });
    } catch (error) {
      throw isCallbackRefused(error) ? new InvalidProviderCallback("The callback's parameters fail the checks", { cause: error }) : error;
    }
    const claims = tokens.claims() as Record<string, unknown> | undefined;
    const profile = this.definition
      ? await this.definition.userInfo({ api: this.api(tokens.access_token), idTokenClaims: claims, settings: this.settings })
      : mockProfile(
          await oidc.fetchUserInfo(
            this.configuration,
            tokens.access_token,
            typeof claims?.sub === "string" ? claims.sub : oidc.skipSubjectCheck,
          ),
        );
    const lifetime = tokens.expiresIn() ?? this.definition?.defaultAccessTokenLifetimeSeconds ?? DEFAULT_ACCESS_TOKEN_LIFETIME_SECONDS;
    return {
      profile,
      tokens: {
        accessToken: tokens.access_token,
        refreshToken: tokens.refresh_token ?? null,
        expiresAt: new Date(this.clock.now() + lifetime * 1000),
      },
    };
  }

  /**
   * A new access token for a stored refresh token (openid-client's refresh
   * grant). `refreshToken` is null when the provider keeps the old one.
   * Throws openid-client's errors (see providerFailureKind).
   */
  async refresh(refreshToken: string): Promise<ProviderTokenSet> {
    const tokens = await oidc.refreshTokenGrant(this.configuration, refreshToken);
    const lifetime = tokens.expiresIn() ?? this.definition?.defaultAccessTokenLifetimeSeconds ?? DEFAULT_ACCESS_TOKEN_LIFETIME_SECONDS;
    return {
      accessToken: tokens.access_token,
      refreshToken: tokens.refresh_token ?? null,
      expiresAt: new Date(this.clock.now() + lifetime * 1000),
    };
  }

  /**
   * Whether the provider still takes the access token: its user-info answers
   * 401 once the user revoked the app (or the token is otherwise dead). Any
   * other failure says nothing about the token, which is then taken as good;
   * so is every token of a provider without a user-info endpoint (Apple).
   */
  async accessTokenAccepted(accessToken: string): Promise<boolean> {
    try {
      if (this.definition === null) {
        await oidc.fetchUserInfo(this.configuration, accessToken, oidc.skipSubjectCheck);
      } else if (!this.definition.readsIdToken) {
        await this.definition.userInfo({ api: this.api(accessToken), idTokenClaims: undefined, settings: this.settings });
      }
      return true;
    } catch (error) {
      return !isUnauthorized(error);
    }
  }

  private api(accessToken: string) {
    const configuration = this.configuration;
    return {
      async getJson(url: string, headers: Record<string, string> = {}): Promise<unknown> {
        const response = await oidc.fetchProtectedResource(
          configuration,
          accessToken,
          new URL(url),
          "GET",
          undefined,
          new Headers(headers),
        );
        if (!response.ok) throw new ProviderHttpError(response.status, url);
        return response.json();
      },
    };
  }
}

/**
 * openid-client checked the callback's own parameters before any request and
 * refused them: its processing error then carries those parameters.
 */
function isCallbackRefused(error: unknown): boolean {
  if (!(error instanceof oidc.ClientError) || error.code !== "OAUTH_INVALID_RESPONSE") return false;
  const details = (error.cause as { cause?: unknown } | undefined)?.cause;
  return typeof details === "object" && details !== null && (details as { parameters?: unknown }).parameters instanceof URLSearchParams;
}

/** The provider refused the access token itself (401), as opposed to failing. */
function isUnauthorized(error: unknown): boolean {
  if (error instanceof oidc.WWWAuthenticateChallengeError || error instanceof oidc.ResponseBodyError) return error.status === 401;
  return error instanceof ProviderHttpError && error.status === 401;
}

/** How a provider failure should be answered; null: an unexpected failure (500). */
export type ProviderFailureKind =
  "access_denied" | "invalid_grant" | "invalid_client" | "invalid_scope" | "invalid_callback" | "unavailable";

export function providerFailureKind(error: unknown): ProviderFailureKind | null {
  if (error instanceof InvalidProviderCallback) return "invalid_callback";
  if (error instanceof oidc.AuthorizationResponseError || error instanceof oidc.ResponseBodyError) {
    if (error instanceof oidc.ResponseBodyError && (error.status >= 500 || error.status === 429)) return "unavailable";
    switch (error.error) {
      case "access_denied":
      case "consent_required":
        return "access_denied";
      case "invalid_grant":
        return "invalid_grant";
      case "invalid_client":
      case "unauthorized_client":
        return "invalid_client";
      case "invalid_scope":
      case "unauthorized_scope_error":
        return "invalid_scope";
      case "temporarily_unavailable":
      case "server_error":
        return "unavailable";
    }
    return null;
  }
  if (error instanceof ProviderHttpError) return error.status >= 500 || error.status === 429 ? "unavailable" : null;
  // fetch() failed before any response (connection refused, DNS, reset), unwrapped by openid-client.
  if (error instanceof TypeError && error.message.startsWith("fetch failed")) return "unavailable";
  if (error instanceof oidc.ClientError) {
    if (error.code === "OAUTH_TIMEOUT" || error.code === "OAUTH_ABORT") return "unavailable";
    const cause = (error as { cause?: unknown }).cause;
    // A status the protocol does not expect (an HTML error page from a proxy, say).
    if (cause instanceof Response) return cause.status >= 500 || cause.status === 429 ? "unavailable" : null;
    // fetch() itself failed: no connection.
    if (cause instanceof TypeError) return "unavailable";
  }
  return null;
}

function staticConfiguration(definition: OAuthProviderDefinition, settings: OAuthAppSettings, timeoutSeconds: number): oidc.Configuration {
  const endpoints = definition.endpoints(settings);
  const configuration = new oidc.Configuration(
    {
      issuer: endpoints.issuer ?? new URL(endpoints.authorization).origin,
      authorization_endpoint: endpoints.authorization,
      token_endpoint: endpoints.token,
      ...(endpoints.jwksUri ? { jwks_uri: endpoints.jwksUri } : {}),
    },
    settings.clientId,
    { client_secret: settings.clientSecret },
    definition.tokenEndpointAuth === "client_secret_post"
      ? oidc.ClientSecretPost(settings.clientSecret)
      : oidc.ClientSecretBasic(settings.clientSecret),
  );
  configuration.timeout = timeoutSeconds;
  const fix = tokenAnswerFix(definition);
  if (fix) {
    configuration[oidc.customFetch] = async (url, options) => {
      const response = await fetch(url, options as RequestInit);
      if (url !== endpoints.token || !(response.headers.get("content-type") ?? "").includes("json")) return response;
      const fixed = fix(response.status, (await response.json()) as Record<string, unknown>);
      return new Response(JSON.stringify(fixed.json), { status: fixed.status, headers: { "content-type": "application/json" } });
    };
  }
  return configuration;
}

/** Discovery answers, kept per provider URL and client: every sign-in needs them, and they do not change. */
const discovered = new Map<string, Promise<oidc.Configuration>>();

function discoverMock(mockUrl: string, clientId: string, timeoutSeconds: number): Promise<oidc.Configuration> {
  const key = `${mockUrl} ${clientId} ${timeoutSeconds}`;
  let configuration = discovered.get(key);
  if (!configuration) {
    const url = new URL(mockUrl);
    configuration = oidc
      .discovery(url, clientId, { client_secret: MOCK_CLIENT_SECRET }, oidc.ClientSecretBasic(MOCK_CLIENT_SECRET), {
        timeout: timeoutSeconds,
        // The development provider runs on plain HTTP on the developer's machine.
        ...(url.protocol === "http:" ? { execute: [oidc.allowInsecureRequests] } : {}),
      })
      .then((config) => {
        config.timeout = timeoutSeconds;
        return config;
      });
    discovered.set(key, configuration);
    // A provider that was down is asked again next time.
    configuration.catch(() => discovered.delete(key));
  }
  return configuration;
}

/** Fresh random values for one flow: the state and PKCE verifier we use towards the provider (43 base64url characters each). */
export function newFlowSecrets(): { state: string; codeVerifier: string } {
  return { state: oidc.randomState(), codeVerifier: oidc.randomPKCECodeVerifier() };
}
