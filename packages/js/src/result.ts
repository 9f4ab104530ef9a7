/**
 * The outcome of a call whose expected failures are part of its answer
 * (a wrong password, a taken e-mail): `{ status: "ok", data }` or
 * `{ status: "error", error }`. Unexpected failures are still thrown.
 */
export type Result<T, E = unknown> = { status: "ok"; data: T } | { status: "error"; error: E };

export const Result = {
  ok<T>(data: T): { status: "ok"; data: T } {
    return { status: "ok", data };
  },
  error<E>(error: E): { status: "error"; error: E } {
    return { status: "error", error };
  },
  /** Runs `call`; a thrown error that is an instance of one of `expected` becomes an error Result, anything else is thrown. */
  async of<T, E>(expected: readonly (abstract new (...a: any[]) => E)[], call: () => Promise<T>): Promise<Result<T, E>> {
    try {
      return Result.ok(await call());
    } catch (error) {
      if (expected.some((kind) => error instanceof kind)) return Result.error(error as E);
      throw error;
    }
  },
  /** The data, or throws the error. */
  orThrow<T, E>(result: Result<T, E>): T {
    if (result.status === "ok") return result.data;
    throw result.error;
  },
};
