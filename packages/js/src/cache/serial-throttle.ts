/**
 * Runs one task at a time, starting each at least `throttleMs` after the
 * previous one started. Requests made while a run waits to start share that
 * run, so a burst of requests costs one run in flight plus one queued.
 */
export class SerialThrottle<T> {
  #inFlight: Promise<T> | null = null;
  #queued: Deferred<T> | null = null;
  #timer: ReturnType<typeof setTimeout> | null = null;
  #lastStart = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly task: () => Promise<T>,
    private readonly throttleMs: number,
  ) {}

  /** Whether a run is under way or waiting to start. */
  get busy(): boolean {
    return this.#inFlight !== null || this.#queued !== null;
  }

  /** A run that starts after this call: the one already waiting, else a new one. */
  request(): Promise<T> {
    if (this.#queued) return this.#queued.promise;
    const queued = deferred<T>();
    this.#queued = queued;
    this.#pump();
    return queued.promise;
  }

  #pump(): void {
    if (this.#inFlight !== null || this.#queued === null || this.#timer !== null) return;
    const wait = this.#lastStart + this.throttleMs - Date.now();
    if (wait > 0) {
      this.#timer = setTimeout(() => {
        this.#timer = null;
        this.#pump();
      }, wait);
      return;
    }
    const run = this.#queued;
    this.#queued = null;
    this.#lastStart = Date.now();
    this.#inFlight = run.promise;
    const settled = () => {
      this.#inFlight = null;
      this.#pump();
    };
    run.promise.then(settled, settled);
    let started: Promise<T>;
    try {
      started = this.task();
    } catch (error) {
      started = Promise.reject(error);
    }
    started.then(run.resolve, run.reject);
  }
}

interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
  reject(error: unknown): void;
}

export function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}
