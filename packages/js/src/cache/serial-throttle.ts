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

  /**
   * Settles once the runs requested so far have finished (at once when none
   * is under way or waiting); a run requested meanwhile is not waited for,
   * so a run that keeps requesting another still lets this settle (`busy`
   * then tells of the next).
   */
  async settled(): Promise<void> {
    const last = this.#queued?.promise ?? this.#inFlight;
    if (last === null) return;
    // The runner's bookkeeping (clearing `busy`) is a callback on the same promise, run no later than this one's: done when this resumes.
    await last.then(ignore, ignore);
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

function ignore(): void {}

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
