/**
 * The operating contract (DESIGN.md): everything the server reads from the
 * environment, read once at start.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { ACCESS_TOKEN_DEFAULT_EXPIRATION_MILLIS, OAUTH_PROVIDER_IDS, type OAuthProviderId } from "@latchkey/shared";
import { parseDuration } from "./lib/duration.ts";
import type { SmtpSettings } from "./domain/emails/smtp.ts";
import type { SiteverifySettings } from "./integrations/siteverify.ts";
import { randomCode } from "./lib/secrets.ts";

export interface ServerConfig {
  port: number;
  /** Public base URL of this server (without /api/v1); used in token issuers. */
  apiUrl: string;
  databaseUrl: string | null;
  dataDir: string;
  /** PGlite's shared_buffers (LATCHKEY_PGLITE_SHARED_BUFFERS, e.g. "64MB"); null: db/connect.ts's embedded default. */
  pgliteSharedBuffers: string | null;
  serverSecret: string;
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
   * The built dashboard (apps/dashboard/dist) to serve at / (LATCHKEY_DASHBOARD_DIR; `npm start` builds it
   * and sets it). Null: the API alone.
   */
  dashboardDir: string | null;
}

/** `mock`: the provider is the development OpenID provider at ServerConfig.oauthMockUrl. */
export type SharedOAuthCredentials = { kind: "real"; clientId: string; clientSecret: string } | { kind: "mock" };

const TURNSTILE_SITEVERIFY_URL = "https://challenges.cloudflare.com/turnstile/v0/siteverify";
/** A sign-up waits at most this long for the verdict; past it the challenge counts as unverifiable. */
const SITEVERIFY_TIMEOUT_MILLIS = 3000;

export function configFromEnv(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const port = Number(env.PORT ?? 8102);
  const dataDir = resolve(env.LATCHKEY_DATA_DIR ?? ".latchkey/data");
  return {
    port,
    apiUrl: (env.LATCHKEY_API_URL ?? env.STACK_API_URL ?? `http://localhost:${port}`).replace(/\/+$/, ""),
    databaseUrl: env.DATABASE_URL || null,
    dataDir,
    pgliteSharedBuffers: pgliteSharedBuffersFromEnv(env),
    serverSecret: env.STACK_SERVER_SECRET || devServerSecret(join(dirname(dataDir), "server-secret")),
    accessTokenExpirationMillis: env.STACK_ACCESS_TOKEN_EXPIRATION_TIME
      ? parseDuration(env.STACK_ACCESS_TOKEN_EXPIRATION_TIME)
      : ACCESS_TOKEN_DEFAULT_EXPIRATION_MILLIS,
    seedInternalKeys: {
      publishableClientKey: env.STACK_SEED_INTERNAL_PROJECT_PUBLISHABLE_CLIENT_KEY || null,
      secretServerKey: env.STACK_SEED_INTERNAL_PROJECT_SECRET_SERVER_KEY || null,
      superSecretAdminKey: env.STACK_SEED_INTERNAL_PROJECT_SUPER_SECRET_ADMIN_KEY || null,
    },
    email: env.STACK_EMAIL_HOST ? sharedSmtpFromEnv(env) : null,
    smtpAllowPrivateHosts: env.LATCHKEY_SMTP_ALLOW_PRIVATE_HOSTS === "true",
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
    dashboardDir: env.LATCHKEY_DASHBOARD_DIR ? resolve(env.LATCHKEY_DASHBOARD_DIR) : null,
  };
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
    throw new Error(
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
    if (!clientId || !clientSecret) throw new Error(`Set both ${prefix}_CLIENT_ID and ${prefix}_CLIENT_SECRET, or neither.`);
    if (clientId === "MOCK" || clientSecret === "MOCK") {
      if (clientId !== clientSecret)
        throw new Error(`${prefix}_CLIENT_ID and ${prefix}_CLIENT_SECRET must both be MOCK to use the mock provider.`);
      if (!oauthMockUrl) throw new Error(`${prefix}_CLIENT_ID is MOCK: set STACK_OAUTH_MOCK_URL to the development OpenID provider's URL.`);
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

/**
 * Without STACK_SERVER_SECRET (development), a secret is generated once and
 * kept beside the data so restarts can still decrypt the signing keys.
 */
function devServerSecret(file: string): string {
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  mkdirSync(dirname(file), { recursive: true });
  const secret = randomCode(64);
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}
