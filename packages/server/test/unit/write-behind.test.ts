/**
 * The write-behind batch (src/lib/write-behind.ts) on its own: chunks, the
 * once-per-interval rule on the caller's clock, the timer (fired by the test,
 * not waited for), and the flush on close. Its two users' statements are
 * tested on a real database in session-activity.test.ts and api-key-check.test.ts.
 */
import { describe, expect, it } from "vitest";
import { WriteBehind, type Schedule } from "../../src/lib/write-behind.ts";
import { TestClock } from "../test-clock.ts";

/** A timer the test fires by hand: what is scheduled, and for how long. */
function manualTimers() {
  const timers: { run: () => void; millis: number; cancelled: boolean }[] = [];
  const schedule: Schedule = (run, millis) => {
    const timer = { run, millis, cancelled: false };
    timers.push(timer);
    return () => {
      timer.cancelled = true;
    };
  };
  const live = () => timers.filter((t) => !t.cancelled);
  return { timers, schedule, live };
}

function batcher<V>(options: { chunkRows?: number; oncePerMillis?: number; failCalls?: number[] } = {}) {
  const chunks: [string, V][][] = [];
  let calls = 0;
  const { timers, schedule, live } = manualTimers();
  const batch = new WriteBehind<V>({
    writeChunk: async (chunk) => {
      calls += 1;
      if (options.failCalls?.includes(calls)) throw new Error(`write ${calls} failed`);
      chunks.push(chunk);
    },
    chunkRows: options.chunkRows ?? 3,
    flushAfterMillis: 5000,
    oncePerMillis: options.oncePerMillis,
    schedule,
  });
  return { batch, chunks, timers, live };
}

describe("WriteBehind", () => {
  it("writes the latest value of each id, in chunks of at most chunkRows", async () => {
    const { batch, chunks } = batcher<string>({ chunkRows: 3 });
    for (let i = 0; i < 7; i++) batch.mark(`id-${i}`, `first-${i}`, 0);
    batch.mark("id-2", "second-2", 0);
    await batch.flush();
    expect(chunks.map((chunk) => chunk.length)).toEqual([3, 3, 1]);
    expect(new Map(chunks.flat()).get("id-2")).toBe("second-2");
    expect(chunks.flat()).toHaveLength(7);
    await batch.flush();
    expect(chunks).toHaveLength(3); // nothing pending, no empty write
  });

  it("starts one timer for a batch, writes when it fires, and starts another with the next mark", async () => {
    const { batch, chunks, timers } = batcher<number>();
    batch.mark("a", 1, 0);
    batch.mark("b", 2, 0);
    expect(timers).toHaveLength(1);
    expect(timers[0]!.millis).toBe(5000);
    expect(chunks).toHaveLength(0); // nothing on the marking path
    timers[0]!.run();
    await batch.flush(); // queued behind the timer's flush
    expect(chunks.flat()).toEqual([
      ["a", 1],
      ["b", 2],
    ]);
    batch.mark("c", 3, 0);
    expect(timers).toHaveLength(2);
  });

  it("keeps one mark per id per interval on the caller's clock; the next after it counts", async () => {
    const clock = new TestClock();
    clock.freeze();
    const { batch, chunks } = batcher<number>({ oncePerMillis: 60_000 });
    const first = clock.now();
    batch.mark("key", first, first);
    batch.mark("other", first, first);
    clock.advance(30_000);
    batch.mark("key", clock.now(), clock.now()); // within the minute: not marked
    await batch.flush();
    expect(chunks.flat()).toEqual([
      ["key", first],
      ["other", first],
    ]);
    clock.advance(29_999);
    batch.mark("key", clock.now(), clock.now()); // still within the minute of the kept mark
    await batch.flush();
    expect(chunks).toHaveLength(1);
    clock.advance(1);
    batch.mark("key", clock.now(), clock.now()); // a minute after the kept mark
    await batch.flush();
    expect(chunks[1]).toEqual([["key", first + 60_000]]);
  });

  it("without an interval, every mark replaces the value", async () => {
    const { batch, chunks } = batcher<number>();
    batch.mark("s", 1, 1000);
    batch.mark("s", 2, 1001);
    await batch.flush();
    expect(chunks.flat()).toEqual([["s", 2]]);
  });

  it("on close, stops the timer and writes what is pending", async () => {
    const { batch, chunks, timers, live } = batcher<number>({ chunkRows: 2 });
    batch.mark("a", 1, 0);
    batch.mark("b", 2, 0);
    batch.mark("c", 3, 0);
    await batch.close();
    expect(live()).toHaveLength(0);
    expect(timers).toHaveLength(1);
    expect(chunks.map((chunk) => chunk.map(([id]) => id))).toEqual([["a", "b"], ["c"]]);
  });

  it("a failed chunk goes back with the chunks after it, not the ones written; a newer mark meanwhile wins", async () => {
    const { batch, chunks } = batcher<string>({ chunkRows: 2, failCalls: [2] });
    for (const id of ["a", "b", "c", "d", "e"]) batch.mark(id, `old-${id}`, 0);
    await expect(batch.flush()).rejects.toThrow("write 2 failed");
    expect(chunks).toEqual([
      [
        ["a", "old-a"],
        ["b", "old-b"],
      ],
    ]);
    batch.mark("d", "new-d", 0);
    await batch.close();
    expect(new Map(chunks.slice(1).flat())).toEqual(
      new Map([
        ["c", "old-c"],
        ["d", "new-d"],
        ["e", "old-e"],
      ]),
    );
  });

  it("a failed write rejects only the flush that made it", async () => {
    const { batch, chunks } = batcher<number>({ failCalls: [1] });
    batch.mark("a", 1, 0);
    const failed = batch.flush();
    const next = batch.flush();
    await expect(failed).rejects.toThrow("write 1 failed");
    await next;
    expect(chunks.flat()).toEqual([["a", 1]]);
  });

  it("refuses a chunk of no rows", () => {
    expect(() => new WriteBehind<number>({ writeChunk: async () => {}, chunkRows: 0, flushAfterMillis: 5000 })).toThrow("at least one row");
  });
});
