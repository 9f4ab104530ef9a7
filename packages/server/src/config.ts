/**
 * The operating contract (README.md, docs/production.md): everything the server reads from the
 * environment, read once at start.
 */
import { resolve } from "node:path";
import proxyaddr from "proxy-addr";
import { ACCESS_TOKEN_DEFAULT_EXPIRATION_MILLIS, OAUTH_PROVIDER_IDS, type OAuthProviderId } from "@latchkey/shared";
import { parseDuration } from "./lib/duration.ts";
import type { SmtpSettings } from "./domain/emails/smtp.ts";
import type { SiteverifySettings } from "./integrations/siteverify.ts";
import type { ChatCompletionsSettings } from "./integrations/chat-completions.ts";
import { StartupError } from "./process/startup-error.ts";

export interface ServerConfig {
  /**
   * Production mode of the process: NODE_ENV=production or DATABASE_URL. It needs
   * STACK_SERVER_SECRET and LATCHKEY_API_URL, prints no key and logs JSON only.
   */
  production: boolean;
  port: number;
  /** Public base URL of this server (without /api/v1); used in token issuers. */
  apiUrl: string;
  databaseUrl: string | null;
  /** PGlite's data directory, which also holds the development secret, keys and the one-writer lock (process/data-dir.ts). */
  dataDir: string;
  /** PGlite's shared_buffers (LATCHKEY_PGLITE_SHARED_BUFFERS, e.g. "64MB"); null: db/connect.ts's embedded default. */
  pgliteSharedBuffers: string | null;
  serverSecret: string;
  /**
   * The secrets the data vault's key-encryption keys are derived from (LATCHKEY_DATA_VAULT_SECRETS,
   * comma-separated): the first wraps every new data key, all of them unwrap, so during a rotation the old
   * one stays readable (capabilities/data-vault/domain/local-sealer.ts). Null: the server secret alone.
   */
  dataVaultSecrets: readonly string[] | null;
  accessTokenExpirationMillis: number;
  seedInternalKeys: {
    publishableClientKey: string | null;
    secretServerKey: string | null;
    superSecretAdminKey: string | null;
  };
  /** The shared SMTP server (STACK_EMAIL_*); without it, mail goes to the dev outbox. */
  email: SmtpSettings | null;
  /** Whether projects' own SMTP settings may name private or local hosts (LATCHKEY_SMTP_ALLOW_PRIVATE_HOSTS). */
  smtpAllowPrivateHosts: boolean;
  /** Whether webhook endpoints may be on private or local networks (LATCHKEY_WEBHOOKS_ALLOW_PRIVATE_URLS). */
  webhooksAllowPrivateUrls: boolean;
  /**
   * Check every answer against its endpoint's response schema and fail the
   * request (500, logged) when it does not match (LATCHKEY_CHECK_RESPONSES;
   * the test suite turns it on). Off, answers are not looked at.
   */
  checkResponses: boolean;
  /**
   * Where bot challenge tokens are verified (STACK_TURNSTILE_*); null when
   * STACK_DISABLE_BOT_CHALLENGE=true or no secret is set: every challenge then counts as passed.
   */
  botChallenge: SiteverifySettings | null;
  /**
   * Whether an SMTP password may be sent without TLS to a host that is not
   * loopback (LATCHKEY_SMTP_ALLOW_INSECURE_AUTH); loopback hosts never need TLS.
   */
  smtpAllowInsecureAuth: boolean;
  /**
   * Every passkey ceremony of a project not in production mode uses the fixed challenge "MOCK"
   * (base64url `TU9DSw`), so recorded WebAuthn answers replay in test suites
   * (STACK_ENABLE_HARDCODED_PASSKEY_CHALLENGE_FOR_TESTING=yes). Never in production: a fixed
   * challenge lets a captured passkey answer be replayed. Projects in production mode always get
   * random challenges (domain/auth/passkey/relying-party.ts).
   */
  passkeyTestChallenge: boolean;
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
  /**
   * Whether the rate limits on sign-in attempts, second factors and e-mail sends are enforced
   * (LATCHKEY_RATE_LIMITS=off turns them off, warned about at start): test suites run many clients
   * from one address, which would meet 429 on every send.
   */
  rateLimits: boolean;
  /**
   * The OpenAI-compatible chat-completions service of the dashboard's AI assistant
   * (LATCHKEY_AI_BASE_URL, LATCHKEY_AI_API_KEY, LATCHKEY_AI_MODEL); null: the assistant is off
   * and its replies answer AI_CHAT_NOT_CONFIGURED.
   */
  aiChat: ChatCompletionsSettings | null;
}

/**
 * LATCHKEY_TRUSTED_PROXIES: comma-separated addresses or CIDR ranges (or proxy-addr's names
 * loopback, linklocal, uniquelocal), or a number of hops in front of the server; empty: none, the
 * socket's peer is the client. LATCHKEY_FORWARDED_HEADER names the header the proxies write:
 * x-forwarded-for (the default) or forwarded (RFC 7239). Only one is read: a proxy that writes one
 * passes the other through as the client sent it.
 */
export interface TrustedProxies {
  proxies: string[] | number;
  header: "x-forwarded-for" | "forwarded";
}

/** `mock`: the provider is the development OpenID provider at ServerConfig.oauthMockUrl. */
export type SharedOAuthCredentials = { kind: "real"; clientId: string; clientSecret: string } | { kind: "mock" };

const TURNSTILE_SITEVERIFY_URL = "https://challenges.cloudflare.com/turnstile/v0/siteverify";
const APPLE_JWKS_URL = "https://appleid.apple.com/auth/keys";
/** A sign-up waits at most this long for the verdict; past it the challenge counts as unverifiable. */
const SITEVERIFY_TIMEOUT_MILLIS = 3000;

/**
 * What configFromEnv reads. Without STACK_SERVER_SECRET (development only) the
 * secret is null here: main.ts reads or makes it in the data directory once it
 * holds the directory's lock, so reading the configuration writes nothing.
 */
export type EnvConfig = Omit<ServerConfig, "serverSecret"> & { serverSecret: string | null };

/** Shorter secrets are refused in production and warned about in development. */
export const MIN_SERVER_SECRET_LENGTH = 32;

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
    seedInternalKeys: {
      publishableClientKey: env.STACK_SEED_INTERNAL_PROJECT_PUBLISHABLE_CLIENT_KEY || null,
      secretServerKey: env.STACK_SEED_INTERNAL_PROJECT_SECRET_SERVER_KEY || null,
      superSecretAdminKey: env.STACK_SEED_INTERNAL_PROJECT_SUPER_SECRET_ADMIN_KEY || null,
    },
    email: env.STACK_EMAIL_HOST ? sharedSmtpFromEnv(env) : null,
    smtpAllowPrivateHosts: env.LATCHKEY_SMTP_ALLOW_PRIVATE_HOSTS === "true",
    webhooksAllowPrivateUrls: env.LATCHKEY_WEBHOOKS_ALLOW_PRIVATE_URLS === "true",
    checkResponses: env.LATCHKEY_CHECK_RESPONSES === "true",
    botChallenge:
      env.STACK_DISABLE_BOT_CHALLENGE === "true" || !env.STACK_TURNSTILE_SECRET_KEY
        ? null
        : {
            url: env.STACK_TURNSTILE_SITEVERIFY_URL || TURNSTILE_SITEVERIFY_URL,
            secretKey: env.STACK_TURNSTILE_SECRET_KEY,
            timeoutMillis: SITEVERIFY_TIMEOUT_MILLIS,
          },
    smtpAllowInsecureAuth: env.LATCHKEY_SMTP_ALLOW_INSECURE_AUTH === "true",
    passkeyTestChallenge: ["yes", "true"].includes(env.STACK_ENABLE_HARDCODED_PASSKEY_CHALLENGE_FOR_TESTING ?? ""),
    ...sharedOAuthFromEnv(env),
    appleJwksUrl: env.LATCHKEY_APPLE_JWKS_URL || APPLE_JWKS_URL,
    dashboardDir: env.LATCHKEY_DASHBOARD_DIR ? resolve(env.LATCHKEY_DASHBOARD_DIR) : null,
    sdkDir: env.LATCHKEY_SDK_DIR ? resolve(env.LATCHKEY_SDK_DIR) : null,
    trustedProxies: trustedProxiesFromEnv(env),
    metricsToken: env.LATCHKEY_METRICS_TOKEN || null,
    accessLog: env.LATCHKEY_ACCESS_LOG !== "off",
    rateLimits: rateLimitsFromEnv(env.LATCHKEY_RATE_LIMITS),
    aiChat: aiChatFromEnv(env),
  };
}

/** A reply waits at most this long for the model: long answers (a whole template) take a while. */
const AI_CHAT_TIMEOUT_MILLIS = 60_000;

function aiChatFromEnv(env: NodeJS.ProcessEnv): ChatCompletionsSettings | null {
  const baseUrl = env.LATCHKEY_AI_BASE_URL?.trim();
  const model = env.LATCHKEY_AI_MODEL?.trim();
  const apiKey = env.LATCHKEY_AI_API_KEY || null;
  if (!baseUrl) {
    if (model || apiKey)
      throw new StartupError("LATCHKEY_AI_MODEL and LATCHKEY_AI_API_KEY need LATCHKEY_AI_BASE_URL: set it too, or unset them.");
    return null;
  }
  let url: URL | null = null;
  try {
    url = new URL(baseUrl);
  } catch {
    // answered below
  }
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:")) {
    throw new StartupError(
      `LATCHKEY_AI_BASE_URL must be an http:// or https:// address, not ${JSON.stringify(baseUrl)}: the chat-completions service's base, e.g. https://api.openai.com/v1.`,
    );
  }
  if (!model) throw new StartupError("LATCHKEY_AI_BASE_URL is set but LATCHKEY_AI_MODEL is not: name the model to ask, e.g. gpt-4o.");
  return { baseUrl: baseUrl.replace(/\/+$/, ""), apiKey, model, timeoutMillis: AI_CHAT_TIMEOUT_MILLIS };
}

/** A typo must not switch the limits off (or leave them on while the operator thinks they are off): only on or off. */
function rateLimitsFromEnv(text: string | undefined): boolean {
  const value = (text ?? "").trim().toLowerCase();
  if (value === "" || value === "on") return true;
  if (value === "off") return false;
  throw new StartupError(`LATCHKEY_RATE_LIMITS must be on or off, not ${JSON.stringify(text)}: off only for test environments.`);
}

function trustedProxiesFromEnv(env: NodeJS.ProcessEnv): TrustedProxies {
  const raw = (env.LATCHKEY_TRUSTED_PROXIES ?? "").trim();
  const header = (env.LATCHKEY_FORWARDED_HEADER ?? "x-forwarded-for").trim().toLowerCase();
  if (header !== "x-forwarded-for" && header !== "forwarded") {
    throw new StartupError(`LATCHKEY_FORWARDED_HEADER must be x-forwarded-for or forwarded, not ${JSON.stringify(header)}.`);
  }
  const proxies = /^\d+$/.test(raw)
    ? Number(raw)
    : raw
        .split(",")
        .map((entry) => entry.trim())
        .filter(Boolean);
  // Checked here, before anything starts, by the same parser http/client-address.ts compiles them with.
  if (Array.isArray(proxies) && proxies.length > 0) {
    try {
      proxyaddr.compile(proxies);
    } catch (error) {
      throw new StartupError(
        `LATCHKEY_TRUSTED_PROXIES: ${(error as Error).message}. Give comma-separated addresses or CIDR ranges (or loopback, linklocal, uniquelocal), or a number of hops.`,
        { cause: error },
      );
    }
  }
  return { proxies, header };
}

/** PostgreSQL's own floor for shared_buffers (16 pages of 8kB). */
const MIN_SHARED_BUFFERS_KB = 128;
const SIZE_UNITS_KB = { kB: 1, MB: 1024, GB: 1024 * 1024 } as const;

/** LATCHKEY_PGLITE_SHARED_BUFFERS as PostgreSQL writes sizes ("16MB", "512kB", "1GB"), checked here so a typo is not a cryptic PGlite failure. */
function pgliteSharedBuffersFromEnv(env: NodeJS.ProcessEnv): string | null {
  const value = env.LATCHKEY_PGLITE_SHARED_BUFFERS?.trim();
  if (!value) return null;
  const match = /^(\d+)(kB|MB|GB)$/.exec(value);
  if (!match || Number(match[1]) * SIZE_UNITS_KB[match[2] as keyof typeof SIZE_UNITS_KB] < MIN_SHARED_BUFFERS_KB) {
    throw new StartupError(
      `LATCHKEY_PGLITE_SHARED_BUFFERS must be a size of at least 128kB written as PostgreSQL does, e.g. 64MB or 1GB (got ${JSON.stringify(value)}).`,
    );
  }
  return value;
}

/**
 * Misconfigured shared credentials stop the server at start, with the
 * variable to fix, rather than failing each sign-in later.
 */
function sharedOAuthFromEnv(env: NodeJS.ProcessEnv): Pick<ServerConfig, "sharedOAuthCredentials" | "oauthMockUrl"> {
  const oauthMockUrl = env.STACK_OAUTH_MOCK_URL?.replace(/\/+$/, "") || null;
  const sharedOAuthCredentials: ServerConfig["sharedOAuthCredentials"] = {};
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

/** `STACK_EMAIL_SENDER` is an address, or `Name <address>`. */
function sharedSmtpFromEnv(env: NodeJS.ProcessEnv): SmtpSettings {
  const sender = env.STACK_EMAIL_SENDER ?? "noreply@example.com";
  const named = /^\s*(.*?)\s*<([^>]+)>\s*$/.exec(sender);
  return {
    host: env.STACK_EMAIL_HOST!,
    port: Number(env.STACK_EMAIL_PORT ?? 587),
    username: env.STACK_EMAIL_USERNAME ?? "",
    password: env.STACK_EMAIL_PASSWORD ?? "",
    senderEmail: named ? named[2]! : sender.trim(),
    senderName: named?.[1] || null,
  };
}

/** Production mode (ServerConfig.production). */
export function productionFromEnv(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.NODE_ENV === "production" || Boolean(env.DATABASE_URL);
}

/** Where the data is: all that `latchkey migrate` reads. */
export function databaseFromEnv(env: NodeJS.ProcessEnv = process.env): Pick<ServerConfig, "databaseUrl" | "dataDir"> {
  return { databaseUrl: env.DATABASE_URL || null, dataDir: resolve(env.LATCHKEY_DATA_DIR ?? ".latchkey/data") };
}

function portFromEnv(text: string | undefined): number {
  if (text === undefined || text === "") return 8102;
  const port = Number(text);
  if (!/^\d+$/.test(text.trim()) || port < 1 || port > 65535) {
    throw new StartupError(
      `PORT must be a whole number from 1 to 65535, not ${JSON.stringify(text)}: set PORT to a free port, or unset it for 8102.`,
    );
  }
  return port;
}

function apiUrlFromEnv(env: NodeJS.ProcessEnv, production: boolean, port: number): string {
  const name = env.LATCHKEY_API_URL ? "LATCHKEY_API_URL" : env.STACK_API_URL ? "STACK_API_URL" : null;
  if (!name) {
    if (production) {
      throw new StartupError(
        `LATCHKEY_API_URL is required in production (${productionReason(env)}): set it to this server's public address, e.g. https://auth.example.com.`,
      );
    }
    return `http://localhost:${port}`;
  }
  const text = env[name]!;
  let url: URL | null = null;
  try {
    url = new URL(text);
  } catch {
    // answered below
  }
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:")) {
    throw new StartupError(
      `${name} must be an http:// or https:// address, not ${JSON.stringify(text)}: set it to this server's public address.`,
    );
  }
  return text.replace(/\/+$/, "");
}

/** Never generated in production: replicas and new containers must all decrypt what one of them sealed. */
function serverSecretFromEnv(env: NodeJS.ProcessEnv, production: boolean): string | null {
  const secret = env.STACK_SERVER_SECRET || null;
  if (!production) return secret;
  const fix = `set it to the same random string of at least ${MIN_SERVER_SECRET_LENGTH} characters on every replica, e.g. the output of \`openssl rand -hex 32\``;
  if (!secret) throw new StartupError(`STACK_SERVER_SECRET is required in production (${productionReason(env)}): ${fix}.`);
  if (secret.length < MIN_SERVER_SECRET_LENGTH) {
    throw new StartupError(`STACK_SERVER_SECRET is ${secret.length} characters long, too short for production: ${fix}.`);
  }
  return secret;
}

/**
 * LATCHKEY_DATA_VAULT_SECRETS: the newest secret first, then those still to be read (a rotation); blanks
 * around the commas are ignored. Production wants each as long as a server secret.
 */
export function dataVaultSecretsFromEnv(env: NodeJS.ProcessEnv, production: boolean): string[] | null {
  const text = env.LATCHKEY_DATA_VAULT_SECRETS?.trim();
  if (!text) return null;
  const secrets = text.split(",").map((s) => s.trim());
  if (secrets.some((s) => s === "")) {
    throw new StartupError(
      "LATCHKEY_DATA_VAULT_SECRETS has an empty entry: list the secrets separated by single commas, the newest first.",
    );
  }
  if (new Set(secrets).size !== secrets.length) {
    throw new StartupError("LATCHKEY_DATA_VAULT_SECRETS lists a secret twice: list each once, the newest first.");
  }
  const short = secrets.findIndex((s) => s.length < MIN_SERVER_SECRET_LENGTH);
  if (production && short !== -1) {
    throw new StartupError(
      `LATCHKEY_DATA_VAULT_SECRETS entry ${short + 1} is shorter than ${MIN_SERVER_SECRET_LENGTH} characters, too short for production: use e.g. the output of \`openssl rand -hex 32\`.`,
    );
  }
  return secrets;
}

function accessTokenLifeFromEnv(text: string | undefined): number {
  if (!text) return ACCESS_TOKEN_DEFAULT_EXPIRATION_MILLIS;
  try {
    return parseDuration(text);
  } catch {
    throw new StartupError(`STACK_ACCESS_TOKEN_EXPIRATION_TIME is not a duration (${JSON.stringify(text)}): use e.g. 60s, 10m or 1h.`);
  }
}

function productionReason(env: NodeJS.ProcessEnv): string {
  return env.DATABASE_URL ? "DATABASE_URL is set" : "NODE_ENV=production";
}
