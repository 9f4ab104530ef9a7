/**
 * TOTP second factor (RFC 6238 through otpauth): 6 digits, 30-second steps,
 * one step of clock drift either way. The secret arrives base64 from the
 * client that showed it to the user, and is kept encrypted with the server
 * secret; only a sign-in check ever opens it.
 */
import { TOTP_DIGITS, TOTP_PERIOD_SECONDS } from "@latchkey/shared";
import { Secret, TOTP } from "otpauth";
import { decryptWithSecret, encryptWithSecret } from "../../../lib/secrets.ts";

const DRIFT_STEPS = 1;
const SEAL_PURPOSE = "totp-secret";

/** What the sign-in steps need of a user to know about their second factor. */
export interface TotpHolder {
  totpSecretSealed: string | null;
  legacyTotpSecretBase64: string | null;
}

/**
 * Whether the user has two-factor on. A plaintext secret counts too: during
 * a rolling upgrade, a server of the previous version may still write one
 * before this version seals it at its next start.
 */
export function hasTotp(user: TotpHolder): boolean {
  return user.totpSecretSealed !== null || user.legacyTotpSecretBase64 !== null;
}

/** The user's secret (base64), or null when two-factor is off. */
export function totpSecretOf(serverSecret: string, user: TotpHolder): string | null {
  if (user.totpSecretSealed !== null) return openTotpSecret(serverSecret, user.totpSecretSealed);
  return user.legacyTotpSecretBase64;
}

export function sealTotpSecret(serverSecret: string, secretBase64: string): string {
  return encryptWithSecret(serverSecret, SEAL_PURPOSE, secretBase64);
}

export function openTotpSecret(serverSecret: string, sealed: string): string {
  return decryptWithSecret(serverSecret, SEAL_PURPOSE, sealed);
}

/**
 * The time step `token` belongs to, or null when it is not a current code of
 * this secret. The caller refuses a step it has already accepted, so a code
 * seen over someone's shoulder cannot be replayed within its 30 seconds.
 */
export function totpStepOf(secretBase64: string, token: string, now: number): number | null {
  if (!/^\d{6}$/.test(token)) return null;
  const bytes = Buffer.from(secretBase64, "base64");
  if (bytes.length === 0) return null;
  const totp = new TOTP({ secret: new Secret({ buffer: new Uint8Array(bytes).buffer }), digits: TOTP_DIGITS, period: TOTP_PERIOD_SECONDS });
  const delta = totp.validate({ token, timestamp: now, window: DRIFT_STEPS });
  if (delta === null) return null;
  return totp.counter({ timestamp: now }) + delta;
}
