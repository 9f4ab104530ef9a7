/**
 * Counts failures (or any events: e-mail sends count too) per key in a
 * sliding window and refuses further attempts once a key has too many. Only failures count, so a user who signs in
 * correctly is never slowed down, while guessing is capped per account and
 * per address. Kept per process: each replica enforces its own share.
 * A limiter that is not `enforced` (LATCHKEY_RATE_LIMITS=off, for test
 * environments where many clients share one address) counts nothing and
 * never refuses.
 */
import type { Clock } from "./clock.ts";

export class FailureLimiter {
  private readonly failures = new Map<string, number[]>();

  constructor(
    /** Where the window's time comes from (tests move it to let a window pass). */
    private readonly clock: Clock,
    readonly maxFailures: number,
    readonly windowMillis: number,
    readonly enforced = true,
  ) {}

  /** Seconds until `key` may try again, or 0 when it may try now. */
  retryAfterSeconds(key: string): number {
    if (!this.enforced) return 0;
    const now = this.clock.now();
    const recent = this.recent(key, now);
    if (recent.length < this.maxFailures) return 0;
    return Math.max(1, Math.ceil((recent[0]! + this.windowMillis - now) / 1000));
  }

  recordFailure(key: string): void {
    if (!this.enforced) return;
    const now = this.clock.now();
    const recent = this.recent(key, now);
    recent.push(now);
    this.failures.set(key, recent);
    if (this.failures.size > 100_000) this.prune(now);
  }

  private recent(key: string, now: number): number[] {
    return (this.failures.get(key) ?? []).filter((t) => now - t < this.windowMillis);
  }

  private prune(now: number): void {
    for (const [key, times] of this.failures) {
      if (times.every((t) => now - t >= this.windowMillis)) this.failures.delete(key);
    }
  }
}
