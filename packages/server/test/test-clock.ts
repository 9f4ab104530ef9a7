/**
 * The clock a test server runs on (src/lib/clock.ts): real time plus however
 * far the test moved it, so rows and tokens made one after another still
 * carry increasing times, and a test that waits for an expiry moves the clock
 * past it instead of sleeping. `freeze` stops it where a test needs an exact
 * instant (e.g. the boundary of a second). It goes back only at the end of
 * `ahead`, a look into the future: otherwise rows the database dates itself
 * (column defaults) would lie in the clock's future.
 */
import type { Clock } from "../src/lib/clock.ts";

export class TestClock implements Clock {
  #offset = 0;
  #frozenAt: number | null = null;

  now(): number {
    return this.#frozenAt ?? Date.now() + this.#offset;
  }

  date(): Date {
    return new Date(this.now());
  }

  /** Moves time forward by `millis`. */
  advance(millis: number): void {
    if (millis < 0) throw new Error(`The test clock only moves forward (asked to move ${millis} ms)`);
    if (this.#frozenAt !== null) this.#frozenAt += millis;
    else this.#offset += millis;
  }

  /**
   * Runs `body` with the clock `millis` ahead, then brings it back, so the
   * rest of a file's tests stay in the present (what the server wrote
   * meanwhile keeps its future times).
   */
  async ahead<T>(millis: number, body: () => Promise<T> | T): Promise<T> {
    this.advance(millis);
    try {
      return await body();
    } finally {
      if (this.#frozenAt !== null) this.#frozenAt -= millis;
      else this.#offset -= millis;
    }
  }

  /** Stops time at `at` (default: now) until the test advances it or calls `resume`. */
  freeze(at: number = this.now()): void {
    if (at < this.now()) throw new Error(`The test clock only moves forward (asked to freeze at ${new Date(at).toISOString()})`);
    this.#frozenAt = at;
  }

  /** Lets time run again from where it stands. */
  resume(): void {
    if (this.#frozenAt === null) return;
    this.#offset = Math.max(this.#offset, this.#frozenAt - Date.now());
    this.#frozenAt = null;
  }
}
