/**
 * Work that is synchronous when the data is in memory and asynchronous only
 * when it must wait (a cache miss that goes to the database).
 *
 * Why: the Node adapter answers a handler that returns its Response
 * synchronously on a fast path, with no promise chain and no per-request
 * close listener. A cached `GET /users/me` spends about a seventh less CPU
 * that way (BENCHMARKS.md). The request path is therefore written once, as a
 * generator of steps, and `run` drives it: synchronously for as long as
 * every step has its value, asynchronously from the first step that has to
 * wait.
 */

export type MaybePromise<T> = T | Promise<T>;

export function isPromise<T>(value: MaybePromise<T>): value is Promise<T> {
  return value instanceof Promise;
}

/** The steps of a request: each yield hands `run` a promise to wait for. */
export type Steps<T> = Generator<Promise<unknown>, T, unknown>;

/** Inside steps, `yield* settle(x)`: the value of x, now if it has one, else once it resolves. */
export function* settle<T>(value: MaybePromise<T>): Steps<T> {
  return isPromise(value) ? ((yield value) as T) : value;
}

/**
 * Runs steps synchronously until one has to wait, and from there on
 * asynchronously. A throw before the first wait is thrown to the caller; a
 * throw after it rejects the returned promise. A rejected wait is thrown
 * back into the steps at the `yield`, so their try/catch sees it.
 */
export function run<T>(steps: Steps<T>): MaybePromise<T> {
  const first = steps.next();
  return first.done ? first.value : resume(steps, first.value);
}

async function resume<T>(steps: Steps<T>, pending: Promise<unknown>): Promise<T> {
  for (;;) {
    let step: IteratorResult<Promise<unknown>, T>;
    try {
      const value = await pending;
      step = steps.next(value);
    } catch (error) {
      // Either the wait failed (hand it to the steps) or the steps themselves
      // threw after it (they are finished, and throw() rethrows it as is).
      step = steps.throw(error);
    }
    if (step.done) return step.value;
    pending = step.value;
  }
}

/** `fn` applied to a value that may still be coming (for one-step helpers). */
export function mapMaybe<T, U>(value: MaybePromise<T>, fn: (value: T) => U): MaybePromise<U> {
  return isPromise(value) ? value.then(fn) : fn(value);
}
