/** How sign-ins are guarded: access token life, the bot challenge, the passkey test challenge and the rate limits. */
import { ACCESS_TOKEN_DEFAULT_EXPIRATION_MILLIS } from "@latchkey/shared";
import type { SiteverifySettings } from "../integrations/siteverify.ts";
import { parseDuration } from "../lib/duration.ts";
import { StartupError } from "../process/startup-error.ts";

export interface SignInConfig {
  accessTokenExpirationMillis: number;
  /**
   * Where bot challenge tokens are verified (STACK_TURNSTILE_*); null when
   * STACK_DISABLE_BOT_CHALLENGE=true or no secret is set: every challenge then counts as passed.
   */
  botChallenge: SiteverifySettings | null;
  /**
   * Every passkey ceremony of a project not in production mode uses the fixed challenge "MOCK"
   * (base64url `TU9DSw`), so recorded WebAuthn answers replay in test suites
   * (STACK_ENABLE_HARDCODED_PASSKEY_CHALLENGE_FOR_TESTING=yes). Never in production: a fixed
   * challenge lets a captured passkey answer be replayed. Projects in production mode always get
   * random challenges (domain/auth/passkey/relying-party.ts).
   */
  passkeyTestChallenge: boolean;
  /**
   * Whether the rate limits on sign-in attempts, second factors and e-mail sends are enforced
   * (LATCHKEY_RATE_LIMITS=off turns them off, warned about at start): test suites run many clients
   * from one address, which would meet 429 on every send.
   */
  rateLimits: boolean;
}

export function accessTokenLifeFromEnv(text: string | undefined): number {
  if (!text) return ACCESS_TOKEN_DEFAULT_EXPIRATION_MILLIS;
  try {
    return parseDuration(text);
  } catch {
    throw new StartupError(`STACK_ACCESS_TOKEN_EXPIRATION_TIME is not a duration (${JSON.stringify(text)}): use e.g. 60s, 10m or 1h.`);
  }
}

const TURNSTILE_SITEVERIFY_URL = "https://challenges.cloudflare.com/turnstile/v0/siteverify";
/** A sign-up waits at most this long for the verdict; past it the challenge counts as unverifiable. */
const SITEVERIFY_TIMEOUT_MILLIS = 3000;

export function botChallengeFromEnv(env: NodeJS.ProcessEnv): SiteverifySettings | null {
  return env.STACK_DISABLE_BOT_CHALLENGE === "true" || !env.STACK_TURNSTILE_SECRET_KEY
    ? null
    : {
        url: env.STACK_TURNSTILE_SITEVERIFY_URL || TURNSTILE_SITEVERIFY_URL,
        secretKey: env.STACK_TURNSTILE_SECRET_KEY,
        timeoutMillis: SITEVERIFY_TIMEOUT_MILLIS,
      };
}

export function passkeyTestChallengeFromEnv(env: NodeJS.ProcessEnv): boolean {
  return ["yes", "true"].includes(env.STACK_ENABLE_HARDCODED_PASSKEY_CHALLENGE_FOR_TESTING ?? "");
}

/** A typo must not switch the limits off (or leave them on while the operator thinks they are off): only on or off. */
export function rateLimitsFromEnv(text: string | undefined): boolean {
  const value = (text ?? "").trim().toLowerCase();
  if (value === "" || value === "on") return true;
  if (value === "off") return false;
  throw new StartupError(`LATCHKEY_RATE_LIMITS must be on or off, not ${JSON.stringify(text)}: off only for test environments.`);
}
