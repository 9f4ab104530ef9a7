import { describe, expect, it } from "vitest";
import { isPromise, mapMaybe, run, settle, type MaybePromise, type Steps } from "../../src/lib/maybe-async.ts";

function* add(a: MaybePromise<number>, b: MaybePromise<number>): Steps<number> {
  const x = yield* settle(a);
  const y = yield* settle(b);
  return x + y;
}

describe("run and settle", () => {
  it("finishes synchronously when every step has its value", () => {
    const result = run(add(1, 2));
    expect(isPromise(result)).toBe(false);
    expect(result).toBe(3);
  });

  it("continues asynchronously from the first step that waits, with every later value", async () => {
    const result = run(add(1, Promise.resolve(2)));
    expect(isPromise(result)).toBe(true);
    expect(await result).toBe(3);
    expect(await run(add(Promise.resolve(1), Promise.resolve(2)))).toBe(3);
  });

  it("throws a failure before the first wait to the caller, synchronously", () => {
    // eslint-disable-next-line require-yield -- the case under test: a generator that fails before its first yield
    function* fails(): Steps<number> {
      throw new Error("at once");
    }
    expect(() => run(fails())).toThrow("at once");
  });

  it("rejects with a failure after a wait", async () => {
    function* failsLater(): Steps<number> {
      yield* settle(Promise.resolve(1));
      throw new Error("later");
    }
    await expect(run(failsLater())).rejects.toThrow("later");
  });

  it("throws a rejected wait into the steps, where try/catch sees it", async () => {
    function* recovers(): Steps<string> {
      try {
        yield* settle(Promise.reject(new Error("db down")));
        return "not reached";
      } catch (error) {
        // Waits still work after the catch.
        const more = yield* settle(Promise.resolve("!"));
        return `caught ${(error as Error).message}${more}`;
      }
    }
    expect(await run(recovers())).toBe("caught db down!");
  });

  it("rejects with a rejected wait the steps do not catch", async () => {
    function* doesNotCatch(): Steps<number> {
      return yield* settle(Promise.reject(new Error("db down")));
    }
    await expect(run(doesNotCatch())).rejects.toThrow("db down");
  });

  it("composes: steps inside steps with yield*", async () => {
    function* outer(inner: MaybePromise<number>): Steps<number> {
      return (yield* add(inner, 10)) * 2;
    }
    expect(run(outer(1))).toBe(22);
    expect(await run(outer(Promise.resolve(1)))).toBe(22);
  });
});

describe("mapMaybe", () => {
  it("applies at once to a value and later to a promise", async () => {
    expect(mapMaybe(2, (x) => x * 3)).toBe(6);
    const later = mapMaybe(Promise.resolve(2), (x) => x * 3);
    expect(isPromise(later)).toBe(true);
    expect(await later).toBe(6);
  });
});
