/**
 * The operating contract (README.md, docs/production.md): everything the server reads from the
 * environment, read once at start. Each area's variables are read and checked in config/.
 */
import { resolve } from "node:path";
import type { ChatCompletionsSettings } from "./integrations/chat-completions.ts";
import type { StripeSettings } from "./integrations/stripe/api.ts";
import { apiUrlFromEnv, portFromEnv, type AddressConfig } from "./config/address.ts";
import { aiChatFromEnv } from "./config/ai-chat.ts";
import { databaseFromEnv, pgliteSharedBuffersFromEnv, type DatabaseConfig } from "./config/database.ts";
import { sharedSmtpFromEnv, type MailConfig } from "./config/mail.ts";
import { appleJwksUrlFromEnv, OAUTH_PROVIDER_TIMEOUT_MILLIS, sharedOAuthFromEnv, type OAuthConfig } from "./config/oauth.ts";
import { productionFromEnv } from "./config/production.ts";
import { stripeFromEnv } from "./config/stripe.ts";
import { dataVaultSecretsFromEnv, seedInternalKeysFromEnv, serverSecretFromEnv, type SecretsConfig } from "./config/secrets.ts";
import {
  accessTokenLifeFromEnv,
  botChallengeFromEnv,
  passkeyTestChallengeFromEnv,
  rateLimitsFromEnv,
  type SignInConfig,
} from "./config/sign-in.ts";
import { trustedProxiesFromEnv, type TrustedProxies } from "./config/trusted-proxies.ts";

export interface ServerConfig extends AddressConfig, DatabaseConfig, SecretsConfig, SignInConfig, MailConfig, OAuthConfig {
  /**
   * Production mode of the process: NODE_ENV=production or DATABASE_URL. It needs
   * STACK_SERVER_SECRET and LATCHKEY_API_URL, prints no key and logs JSON only.
   */
  production: boolean;
  /**
   * Check every answer against its endpoint's response schema and fail the
   * request (500, logged) when it does not match (LATCHKEY_CHECK_RESPONSES;
   * the test suite turns it on). Off, answers are not looked at.
   */
  checkResponses: boolean;
  /**
   * The built dashboard (apps/dashboard/dist) to serve at / (LATCHKEY_DASHBOARD_DIR; `npm start` builds it
   * and sets it). Null: the API alone.
   */
  dashboardDir: string | null;
  /**
   * The packed SDK (latchkey-js.tgz, latchkey-react.tgz), served at /sdk/ for apps to install from this server
   * (LATCHKEY_SDK_DIR; `npm start` packs them and sets it). Null: /sdk/ answers 404 saying so.
   */
  sdkDir: string | null;
  /** Whose forwarding headers to believe for the client's address and country (http/client-address.ts). */
  trustedProxies: TrustedProxies;
  /**
   * The bearer token GET /metrics asks for in production (LATCHKEY_METRICS_TOKEN); without one the
   * metrics are not served in production. In development they are open.
   */
  metricsToken: string | null;
  /** One log line per request (LATCHKEY_ACCESS_LOG=off turns it off). */
  accessLog: boolean;
  /** Whether webhook endpoints may be on private or local networks (LATCHKEY_WEBHOOKS_ALLOW_PRIVATE_URLS). */
  webhooksAllowPrivateUrls: boolean;
  /**
   * The OpenAI-compatible chat-completions service of the dashboard's AI assistant
   * (LATCHKEY_AI_BASE_URL, LATCHKEY_AI_API_KEY, LATCHKEY_AI_MODEL); null: the assistant is off
   * and its replies answer AI_CHAT_NOT_CONFIGURED.
   */
  aiChat: ChatCompletionsSettings | null;
  /**
   * Stripe (LATCHKEY_STRIPE_SECRET_KEY, LATCHKEY_STRIPE_WEBHOOK_SECRET, LATCHKEY_STRIPE_API_URL): the
   * platform account projects onboard to with Connect (none: only projects' own keys), and where the API is.
   */
  stripe: StripeSettings;
}

/**
 * What configFromEnv reads. Without STACK_SERVER_SECRET (development only) the
 * secret is null here: main.ts reads or makes it in the data directory once it
 * holds the directory's lock, so reading the configuration writes nothing.
 */
export type EnvConfig = Omit<ServerConfig, "serverSecret"> & { serverSecret: string | null };

/**
 * Throws a StartupError naming the variable to fix, before anything is started
 * or written: a bad PORT, and in production a missing or short
 * STACK_SERVER_SECRET or a missing LATCHKEY_API_URL.
 */
export function configFromEnv(env: NodeJS.ProcessEnv = process.env): EnvConfig {
  const production = productionFromEnv(env);
  const port = portFromEnv(env.PORT);
  return {
    production,
    port,
    apiUrl: apiUrlFromEnv(env, production, port),
    ...databaseFromEnv(env),
    pgliteSharedBuffers: pgliteSharedBuffersFromEnv(env),
    serverSecret: serverSecretFromEnv(env, production),
    dataVaultSecrets: dataVaultSecretsFromEnv(env, production),
    accessTokenExpirationMillis: accessTokenLifeFromEnv(env.STACK_ACCESS_TOKEN_EXPIRATION_TIME),
    seedInternalKeys: seedInternalKeysFromEnv(env),
    email: sharedSmtpFromEnv(env),
    smtpAllowPrivateHosts: env.LATCHKEY_SMTP_ALLOW_PRIVATE_HOSTS === "true",
    webhooksAllowPrivateUrls: env.LATCHKEY_WEBHOOKS_ALLOW_PRIVATE_URLS === "true",
    checkResponses: env.LATCHKEY_CHECK_RESPONSES === "true",
    botChallenge: botChallengeFromEnv(env),
    smtpAllowInsecureAuth: env.LATCHKEY_SMTP_ALLOW_INSECURE_AUTH === "true",
    passkeyTestChallenge: passkeyTestChallengeFromEnv(env),
    ...sharedOAuthFromEnv(env),
    appleJwksUrl: appleJwksUrlFromEnv(env),
    oauthProviderTimeoutMillis: OAUTH_PROVIDER_TIMEOUT_MILLIS,
    dashboardDir: env.LATCHKEY_DASHBOARD_DIR ? resolve(env.LATCHKEY_DASHBOARD_DIR) : null,
    sdkDir: env.LATCHKEY_SDK_DIR ? resolve(env.LATCHKEY_SDK_DIR) : null,
    trustedProxies: trustedProxiesFromEnv(env),
    metricsToken: env.LATCHKEY_METRICS_TOKEN || null,
    accessLog: env.LATCHKEY_ACCESS_LOG !== "off",
    rateLimits: rateLimitsFromEnv(env.LATCHKEY_RATE_LIMITS),
    aiChat: aiChatFromEnv(env),
    stripe: stripeFromEnv(env),
  };
}
