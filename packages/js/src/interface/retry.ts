/** Network retry policy: up to 5 attempts, exponential back-off from 1000 ms, with jitter. */
import { NETWORK_RETRY_BASE_DELAY_MILLIS, NETWORK_RETRY_MAX_ATTEMPTS } from "@latchkey/shared/constants";

export const MAX_ATTEMPTS = NETWORK_RETRY_MAX_ATTEMPTS;

/**
 * The wait before attempt `attempt + 1` (attempt counts from 1): the base
 * doubled per failed attempt, times a random factor in [0.5, 1.5) so many
 * clients failing together do not retry together.
 */
export function retryDelayMillis(attempt: number, random: () => number = Math.random): number {
  return NETWORK_RETRY_BASE_DELAY_MILLIS * 2 ** (attempt - 1) * (0.5 + random());
}

/** `Retry-After` in seconds (or an HTTP date), as milliseconds; the back-off when absent or unreadable. */
/** The longest Retry-After the client sits out before retrying a 429 itself; a longer one is answered to the caller. */
export const MAX_RATE_LIMIT_WAIT_MILLIS = 60_000;

export function retryAfterMillis(header: string | null, attempt: number, now = Date.now()): number {
  if (header !== null) {
    const seconds = Number(header);
    if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
    const date = Date.parse(header);
    if (!Number.isNaN(date)) return Math.max(0, date - now);
  }
  return retryDelayMillis(attempt);
}

export function sleep(millis: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, millis));
}

/** Methods that may be sent twice without changing the outcome. */
export function isIdempotent(method: string): boolean {
  return ["GET", "HEAD", "OPTIONS", "PUT", "DELETE"].includes(method.toUpperCase());
}
