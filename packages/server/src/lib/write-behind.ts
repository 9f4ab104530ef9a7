/**
 * A write-behind batch: the request path marks an id with its latest value in
 * memory (no database write), and a timer writes every marked id a few
 * seconds later, in chunks. Session activity (domain/sessions/activity.ts)
 * and API key use (capabilities/user-team-api-keys/domain/usage.ts) are
 * written this way; what a chunk's statement is stays theirs.
 *
 * Chunks keep each statement's row locks few and short. A chunk that fails
 * goes back into the batch with the chunks after it (not the ones already
 * written), and the next flush tries again.
 */
import { LRUCache } from "lru-cache";

/** Runs `run` once, `millis` from now; returns what cancels it. */
export type Schedule = (run: () => void, millis: number) => () => void;

/** Real timers that keep no process alive (a pending batch is written on close, not by waiting). */
export const realTimers: Schedule = (run, millis) => {
  const timer = setTimeout(run, millis).unref();
  return () => clearTimeout(timer);
};

export interface WriteBehindOptions<V> {
  /** Writes one chunk of (id, latest value) pairs. */
  writeChunk: (chunk: [string, V][]) => Promise<void>;
  chunkRows: number;
  /** How long after the first mark of an empty batch the batch is written. */
  flushAfterMillis: number;
  /**
   * An id marked again less than this long after the mark that was kept is
   * not marked (its value stays the earlier one): at most one write per id
   * per interval. Unset, every mark replaces the value.
   */
  oncePerMillis?: number;
  /** With `oncePerMillis`: how many ids' last kept marks are remembered (the least recently kept leave first). */
  rememberedIds?: number;
  /** Tests pass their own to fire the timer without waiting. */
  schedule?: Schedule;
}

export class WriteBehind<V> {
  private readonly writeChunk: (chunk: [string, V][]) => Promise<void>;
  private readonly chunkRows: number;
  private readonly flushAfterMillis: number;
  private readonly oncePerMillis: number | null;
  private readonly schedule: Schedule;
  /** id → when its last kept mark was made (only with `oncePerMillis`). */
  private readonly kept: LRUCache<string, number> | null;
  private pending = new Map<string, V>();
  private cancelTimer: (() => void) | null = null;
  private flushing: Promise<void> = Promise.resolve();

  constructor(options: WriteBehindOptions<V>) {
    if (!(options.chunkRows >= 1)) throw new Error(`A write-behind chunk holds at least one row (asked for ${options.chunkRows})`);
    this.writeChunk = options.writeChunk;
    this.chunkRows = options.chunkRows;
    this.flushAfterMillis = options.flushAfterMillis;
    this.oncePerMillis = options.oncePerMillis ?? null;
    this.schedule = options.schedule ?? realTimers;
    this.kept = this.oncePerMillis === null ? null : new LRUCache({ maxSize: options.rememberedIds ?? 100_000, sizeCalculation: () => 1 });
  }

  /** Notes `value` as `id`'s latest, marked at `now` (milliseconds, from the caller's clock). */
  mark(id: string, value: V, now: number): void {
    if (this.kept) {
      const last = this.kept.get(id);
      if (last !== undefined && now - last < this.oncePerMillis!) return;
      this.kept.set(id, now);
    }
    this.pending.set(id, value);
    this.cancelTimer ??= this.schedule(() => {
      this.cancelTimer = null;
      // A failed write stays pending: the next flush (a read's, close's, or the timer the next mark starts) tries again.
      void this.flush().catch(() => {});
    }, this.flushAfterMillis);
  }

  /** Writes everything marked; resolves when it is in the database. A failed write rejects this call only. */
  flush(): Promise<void> {
    const next = this.flushing.catch(() => {}).then(() => this.write());
    this.flushing = next;
    return next;
  }

  /** Stops the timer and writes what is pending (at shutdown, before the database closes). */
  async close(): Promise<void> {
    this.cancelTimer?.();
    this.cancelTimer = null;
    await this.flush();
  }

  private async write(): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = [...this.pending];
    this.pending = new Map();
    for (let start = 0; start < batch.length; start += this.chunkRows) {
      try {
        await this.writeChunk(batch.slice(start, start + this.chunkRows));
      } catch (error) {
        // An id marked again meanwhile keeps its newer value.
        for (const [id, value] of batch.slice(start)) if (!this.pending.has(id)) this.pending.set(id, value);
        throw error;
      }
    }
  }
}
