/**
 * Limits on endpoints that make the server send mail, so no one can use the
 * platform to flood an inbox or a mail server: per project for test
 * e-mails, per recipient for mailed codes, and per client address for every
 * send. Every send counts (successful or not).
 */
import { RateLimitedError } from "@latchkey/shared";
import type { Clock } from "../../lib/clock.ts";
import { FailureLimiter } from "../../lib/failure-limiter.ts";

const TEN_MINUTES = 10 * 60 * 1000;

export class EmailSendRateLimit {
  readonly testEmailsPerProject: FailureLimiter;
  /** `${projectId}:${lower-cased address}`: codes mailed to one inbox. */
  readonly codesPerRecipient: FailureLimiter;
  readonly sendsPerIp: FailureLimiter;

  /** `enforced` false: nothing is counted or refused (LATCHKEY_RATE_LIMITS=off). */
  constructor(clock: Clock, enforced = true) {
    this.testEmailsPerProject = new FailureLimiter(clock, 10, TEN_MINUTES, enforced);
    this.codesPerRecipient = new FailureLimiter(clock, 5, TEN_MINUTES, enforced);
    this.sendsPerIp = new FailureLimiter(clock, 30, TEN_MINUTES, enforced);
  }

  /** Counts one test e-mail, or throws 429 when the project or address has sent too many. */
  takeTestEmail(projectId: string, ip: string | null): void {
    this.take(
      this.testEmailsPerProject,
      projectId,
      ip,
      "Too many test e-mails from this project or address. Wait a few minutes, then try again.",
    );
  }

  /** Counts one mailed code (verification, sign-in, reset), or throws 429 when the inbox or address has had too many. */
  takeCodeEmail(projectId: string, recipient: string, ip: string | null): void {
    this.take(
      this.codesPerRecipient,
      `${projectId}:${recipient.toLowerCase()}`,
      ip,
      "Too many e-mails were sent to this address or from your network. Wait a few minutes, then try again.",
    );
  }

  private take(limiter: FailureLimiter, key: string, ip: string | null, message: string): void {
    const wait = Math.max(limiter.retryAfterSeconds(key), ip ? this.sendsPerIp.retryAfterSeconds(ip) : 0);
    if (wait > 0) throw new RateLimitedError(wait, message);
    limiter.recordFailure(key);
    if (ip) this.sendsPerIp.recordFailure(ip);
  }
}
