/**
 * Limits on endpoints that make the server send mail, per project and per
 * client address, so no one can use the platform to flood an inbox or a
 * mail server. Every send counts (successful or not).
 */
import { RateLimitedError } from "../../http/errors.ts";
import { FailureLimiter } from "../../lib/failure-limiter.ts";

const TEN_MINUTES = 10 * 60 * 1000;

export class EmailSendRateLimit {
  readonly testEmailsPerProject = new FailureLimiter(10, TEN_MINUTES);
  readonly sendsPerIp = new FailureLimiter(30, TEN_MINUTES);

  /** Counts one test e-mail, or throws 429 when the project or address has sent too many. */
  takeTestEmail(projectId: string, ip: string | null): void {
    const wait = Math.max(this.testEmailsPerProject.retryAfterSeconds(projectId), ip ? this.sendsPerIp.retryAfterSeconds(ip) : 0);
    if (wait > 0) throw new RateLimitedError(wait, "Too many test e-mails from this project or address. Wait a few minutes, then try again.");
    this.testEmailsPerProject.recordFailure(projectId);
    if (ip) this.sendsPerIp.recordFailure(ip);
  }
}
