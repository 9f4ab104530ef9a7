/** Limits on guessing passwords (per account and per client address) and second factors (per user). */
import { RateLimitedError } from "@latchkey/shared";
import type { Clock } from "../../../lib/clock.ts";
import { FailureLimiter } from "../../../lib/failure-limiter.ts";

const TEN_MINUTES = 10 * 60 * 1000;

export class SignInRateLimit {
  readonly perAccount: FailureLimiter;
  readonly perIp: FailureLimiter;
  /** Wrong TOTP codes per user, whatever attempt code they came with (domain/auth/mfa/mfa-sign-in.ts). */
  readonly totpPerUser: FailureLimiter;

  /** `enforced` false: nothing is counted or refused (LATCHKEY_RATE_LIMITS=off). */
  constructor(clock: Clock, enforced = true) {
    this.perAccount = new FailureLimiter(clock, 20, TEN_MINUTES, enforced);
    this.perIp = new FailureLimiter(clock, 200, TEN_MINUTES, enforced);
    this.totpPerUser = new FailureLimiter(clock, 10, 3 * TEN_MINUTES, enforced);
  }

  /** Throws 429 when this account or address has failed too often. */
  check(accountKey: string, ip: string | null): void {
    const wait = Math.max(this.perAccount.retryAfterSeconds(accountKey), ip ? this.perIp.retryAfterSeconds(ip) : 0);
    if (wait > 0) {
      throw new RateLimitedError(wait, "Too many failed sign-in attempts. Wait a few minutes, then try again.");
    }
  }

  recordFailure(accountKey: string, ip: string | null): void {
    this.perAccount.recordFailure(accountKey);
    if (ip) this.perIp.recordFailure(ip);
  }
}
