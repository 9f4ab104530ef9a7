/** The operator's shared OAuth apps (STACK_<PROVIDER>_CLIENT_*), the mock provider, and where Apple's keys are. */
import { OAUTH_PROVIDER_IDS, type OAuthProviderId } from "@latchkey/shared";
import { StartupError } from "../process/startup-error.ts";

export interface OAuthConfig {
  /**
   * The operator's OAuth apps, used by projects whose provider entry is `shared`
   * (STACK_<PROVIDER>_CLIENT_ID and STACK_<PROVIDER>_CLIENT_SECRET, e.g.
   * STACK_GITHUB_CLIENT_ID). A provider without them cannot be used shared.
   */
  sharedOAuthCredentials: Partial<Record<OAuthProviderId, SharedOAuthCredentials>>;
  /**
   * The OpenID provider every shared provider whose credentials are `MOCK` is
   * sent to (STACK_OAUTH_MOCK_URL; apps/dev-oidc-provider in development and tests).
   */
  oauthMockUrl: string | null;
  /**
   * Where the keys of Apple's ID tokens are fetched (a JWKS document) for native Sign in with Apple
   * (LATCHKEY_APPLE_JWKS_URL): Apple's own, unless tests or an egress proxy stand in for it.
   */
  appleJwksUrl: string;
  /**
   * How long each request to an OAuth provider (discovery, token, user info) may take before the
   * provider counts as unavailable. Fixed for operators; tests shorten it rather than wait.
   */
  oauthProviderTimeoutMillis: number;
}

/** `mock`: the provider is the development OpenID provider at ServerConfig.oauthMockUrl. */
export type SharedOAuthCredentials = { kind: "real"; clientId: string; clientSecret: string } | { kind: "mock" };

const APPLE_JWKS_URL = "https://appleid.apple.com/auth/keys";
/** Long enough for a slow provider, short enough that the browser is not left waiting on one that hangs. */
export const OAUTH_PROVIDER_TIMEOUT_MILLIS = 6000;

/**
 * Misconfigured shared credentials stop the server at start, with the
 * variable to fix, rather than failing each sign-in later.
 */
export function sharedOAuthFromEnv(env: NodeJS.ProcessEnv): Pick<OAuthConfig, "sharedOAuthCredentials" | "oauthMockUrl"> {
  const oauthMockUrl = env.STACK_OAUTH_MOCK_URL?.replace(/\/+$/, "") || null;
  const sharedOAuthCredentials: OAuthConfig["sharedOAuthCredentials"] = {};
  for (const id of OAUTH_PROVIDER_IDS) {
    const prefix = `STACK_${id.toUpperCase()}`;
    const clientId = env[`${prefix}_CLIENT_ID`];
    const clientSecret = env[`${prefix}_CLIENT_SECRET`];
    if (!clientId && !clientSecret) continue;
    if (!clientId || !clientSecret) throw new StartupError(`Set both ${prefix}_CLIENT_ID and ${prefix}_CLIENT_SECRET, or neither.`);
    if (clientId === "MOCK" || clientSecret === "MOCK") {
      if (clientId !== clientSecret)
        throw new StartupError(`${prefix}_CLIENT_ID and ${prefix}_CLIENT_SECRET must both be MOCK to use the mock provider.`);
      if (!oauthMockUrl)
        throw new StartupError(`${prefix}_CLIENT_ID is MOCK: set STACK_OAUTH_MOCK_URL to the development OpenID provider's URL.`);
      sharedOAuthCredentials[id] = { kind: "mock" };
    } else {
      sharedOAuthCredentials[id] = { kind: "real", clientId, clientSecret };
    }
  }
  return { sharedOAuthCredentials, oauthMockUrl };
}

export function appleJwksUrlFromEnv(env: NodeJS.ProcessEnv): string {
  return env.LATCHKEY_APPLE_JWKS_URL || APPLE_JWKS_URL;
}
