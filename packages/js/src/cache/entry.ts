/**
 * One cached query: its latest value (or error), who is subscribed, and the
 * one refresher that re-reads it. A value stays on show while a newer one is
 * read; an error stays until the next subscription, invalidation or `get()`.
 * Subscribers see the value until it is invalidated; `get()` asks the server
 * again unless a read is under way or the value is younger than the throttle.
 */
import { deferred, SerialThrottle } from "./serial-throttle.ts";

/** What a hook renders from: stable objects, a new one only when something changed. */
export type CacheSnapshot<T> =
  /** Nothing to show yet: `promise` settles (never rejects) when a value or an error arrives; the same promise until then. */
  | { readonly status: "pending"; readonly promise: Promise<void> }
  | { readonly status: "ok"; readonly value: T }
  | { readonly status: "error"; readonly error: unknown };

/** A settled promise marked the way React's use() reads without waiting. */
function markFulfilled(promise: Promise<void>): Promise<void> {
  return Object.assign(promise, { status: "fulfilled", value: undefined });
}

export interface CacheTiming {
  /** How long an entry nobody subscribes to is kept. */
  dropAfterMs: number;
  /** The least time between the starts of two reads of one entry. */
  throttleMs: number;
}

export class CacheEntry<T> {
  #snapshot: CacheSnapshot<T> | null = null;
  #arrival: ReturnType<typeof deferred<void>> | null = null;
  #lastArrival: Promise<void> = markFulfilled(Promise.resolve());
  /** Bumped by every invalidation; a read started before the latest one is not shown. */
  #generation = 0;
  /** The generation the latest requested read covers (-1: none, or it must be read again). */
  #requested = -1;
  /** The generation of the shown value or error. */
  #shown = -1;
  #latest: Promise<T> | null = null;
  #settledAt = Number.NEGATIVE_INFINITY;
  readonly #runner: SerialThrottle<T>;
  readonly #listeners = new Set<() => void>();
  #dropTimer: ReturnType<typeof setTimeout> | null = null;
  #dropped = false;

  constructor(
    readonly key: string,
    /** The query's arguments, for invalidating every entry about e.g. one session. */
    readonly args: readonly unknown[],
    private readonly fetcher: () => Promise<T>,
    private readonly timing: CacheTiming,
    private readonly onDrop: (entry: CacheEntry<T>) => void,
    private readonly onRevive: (entry: CacheEntry<T>) => void,
  ) {
    this.#runner = new SerialThrottle(() => this.#read(), timing.throttleMs);
    this.#armDrop();
  }

  /**
   * A fresh value: the read under way (or queued) if there is one, else the
   * value when it was read within the throttle and not invalidated since,
   * else a new read. Every caller and subscriber shares it.
   */
  get(): Promise<T> {
    const snapshot = this.#snapshot;
    const current = this.#shown === this.#generation;
    if (this.#runner.busy && this.#requested === this.#generation && this.#latest) return this.#latest;
    if (snapshot?.status === "ok" && current && Date.now() < this.#settledAt + this.timing.throttleMs)
      return Promise.resolve(snapshot.value);
    this.#requested = -1;
    return this.#ensureFresh();
  }

  /**
   * The promise of the latest wait for a value: the pending snapshot's, and
   * once settled, marked fulfilled. Hooks hand it to React's use() on every
   * render, so a render resumed after suspending meets the same promise.
   */
  get arrival(): Promise<void> {
    return this.#lastArrival;
  }

  /**
   * Settles once the reads requested so far have finished, shown or not;
   * `_reading` then tells whether another is under way or waiting for the
   * throttle. A caller (a test) can so know that no further read is coming
   * without waiting out the throttle.
   */
  _settled(): Promise<void> {
    return this.#runner.settled();
  }

  /** Whether a read is under way or waiting for the throttle. */
  get _reading(): boolean {
    return this.#runner.busy;
  }

  /** What to render now; starts the first read when there is none. */
  getSnapshot = (): CacheSnapshot<T> => {
    if (this.#snapshot === null || this.#shown !== this.#generation) void this.#ensureFresh();
    return this.#snapshot!;
  };

  /** Calls `listener` whenever the snapshot changes; a subscriber to a failed entry reads it again. */
  subscribe = (listener: () => void): (() => void) => {
    if (this.#dropped) {
      this.#dropped = false;
      this.onRevive(this);
    }
    this.#listeners.add(listener);
    this.#cancelDrop();
    if (this.#snapshot?.status === "error") this.#requested = -1;
    if (this.#requested !== this.#generation) void this.#ensureFresh();
    return () => {
      if (!this.#listeners.delete(listener)) return;
      if (this.#listeners.size === 0) this.#armDrop();
    };
  };

  /** The value changed elsewhere: read it again now if anyone shows it, else on the next read. */
  invalidate(): void {
    this.#generation += 1;
    if (this.#listeners.size > 0 || this.#runner.busy) void this.#ensureFresh();
  }

  /**
   * What is shown no longer holds at all (another user signed in on the
   * session): nothing is shown until it is read again, so no subscriber acts
   * on the old value meanwhile.
   */
  reset(): void {
    this.#generation += 1;
    this.#requested = -1;
    this.#show({ status: "pending", promise: this.#arrivalPromise() });
    if (this.#listeners.size > 0 || this.#runner.busy) void this.#ensureFresh();
  }

  #ensureFresh(): Promise<T> {
    if (this.#requested !== this.#generation || this.#latest === null) {
      this.#requested = this.#generation;
      const latest = this.#runner.request();
      // Failures are kept in the snapshot; a read nobody awaits must not be an unhandled rejection.
      latest.catch(() => {});
      this.#latest = latest;
      // Last: listeners told of the pending state may read the snapshot, and must find this read requested.
      if (this.#snapshot === null || this.#snapshot.status === "error") this.#show({ status: "pending", promise: this.#arrivalPromise() });
    }
    return this.#latest;
  }

  async #read(): Promise<T> {
    const generation = this.#generation;
    let value: T;
    try {
      value = await this.fetcher();
    } catch (error) {
      if (generation === this.#generation) this.#settle(generation, { status: "error", error });
      throw error;
    }
    if (generation === this.#generation) this.#settle(generation, { status: "ok", value });
    return value;
  }

  #settle(generation: number, snapshot: CacheSnapshot<T>): void {
    this.#shown = generation;
    this.#settledAt = Date.now();
    const arrival = this.#arrival;
    this.#arrival = null;
    if (arrival) markFulfilled(arrival.promise);
    this.#show(snapshot);
    arrival?.resolve();
  }

  #arrivalPromise(): Promise<void> {
    if (this.#arrival === null) {
      this.#arrival = deferred<void>();
      this.#lastArrival = this.#arrival.promise;
    }
    return this.#arrival.promise;
  }

  #show(snapshot: CacheSnapshot<T>): void {
    this.#snapshot = snapshot;
    for (const listener of [...this.#listeners]) listener();
  }

  #armDrop(): void {
    this.#cancelDrop();
    this.#dropTimer = setTimeout(() => {
      this.#dropTimer = null;
      // A read under way is awaited by someone (e.g. a suspended render): keep the entry until 5000 ms after it settles.
      if (this.#runner.busy && this.#latest) {
        const rearm = () => {
          if (this.#listeners.size === 0 && !this.#dropped && this.#dropTimer === null) this.#armDrop();
        };
        void this.#latest.then(rearm, rearm);
        return;
      }
      this.#dropped = true;
      this.onDrop(this);
    }, this.timing.dropAfterMs);
    // Dropping a cache entry is no reason to keep a Node process running.
    (this.#dropTimer as { unref?(): void }).unref?.();
  }

  #cancelDrop(): void {
    if (this.#dropTimer !== null) clearTimeout(this.#dropTimer);
    this.#dropTimer = null;
  }
}
