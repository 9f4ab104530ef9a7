import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { CachedQuery, CacheStore } from "../../src/cache/index.ts";
import { deferred } from "../../src/cache/serial-throttle.ts";

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

/** A query whose reads the test answers one by one. */
function controlledQuery(store = new CacheStore()) {
  const reads: { arg: string; startedAt: number; answer: ReturnType<typeof deferred<string>> }[] = [];
  const query = new CachedQuery(store, "thing", (arg: string) => {
    const answer = deferred<string>();
    reads.push({ arg, startedAt: Date.now(), answer });
    return answer.promise;
  });
  return { store, query, reads };
}

/** Lets promise callbacks run without moving the clock. */
const flush = () => vi.advanceTimersByTimeAsync(0);

describe("one entry per query", () => {
  it("shares one read between every get and subscriber of the same arguments", async () => {
    const { query, reads } = controlledQuery();
    expect(query.entry("a")).toBe(query.entry("a"));
    expect(query.entry("a")).not.toBe(query.entry("b"));
    const gets = [query.get("a"), query.get("a")];
    const seen: string[] = [];
    const entry = query.entry("a");
    entry.subscribe(() => seen.push(entry.getSnapshot().status));
    entry.subscribe(() => {});
    expect(reads.filter((r) => r.arg === "a")).toHaveLength(1);
    reads[0]!.answer.resolve("A");
    expect(await Promise.all(gets)).toEqual(["A", "A"]);
    expect(entry.getSnapshot()).toEqual({ status: "ok", value: "A" });
    expect(await query.get("a")).toBe("A");
    expect(reads.filter((r) => r.arg === "a")).toHaveLength(1);
    expect(seen).toEqual(["ok"]);
  });

  it("answers get() from a value read within the throttle, and reads again after it (subscribers keep theirs meanwhile)", async () => {
    const { query, reads } = controlledQuery();
    const entry = query.entry("a");
    entry.subscribe(() => {});
    reads[0]!.answer.resolve("A");
    await flush();
    await vi.advanceTimersByTimeAsync(299);
    expect(await query.get("a")).toBe("A");
    expect(reads).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    const again = query.get("a");
    expect(reads).toHaveLength(2);
    expect(query.get("a")).toBe(again);
    expect(entry.getSnapshot()).toEqual({ status: "ok", value: "A" });
    reads[1]!.answer.resolve("A2");
    expect(await again).toBe("A2");
    expect(entry.getSnapshot()).toEqual({ status: "ok", value: "A2" });
  });

  it("makes one read when the first subscriber reads the snapshot from its listener", async () => {
    const { query, reads } = controlledQuery();
    const entry = query.entry("a");
    const seen: string[] = [];
    entry.subscribe(() => seen.push(entry.getSnapshot().status));
    reads[0]!.answer.resolve("A");
    await vi.advanceTimersByTimeAsync(1000);
    expect(seen).toEqual(["pending", "ok"]);
    expect(reads).toHaveLength(1);
  });

  it("tells objects apart by identity", () => {
    const store = new CacheStore();
    const query = new CachedQuery(store, "of", async (session: object) => session);
    const one = {};
    expect(query.entry(one)).toBe(query.entry(one));
    expect(query.entry(one)).not.toBe(query.entry({}));
  });
});

describe("dropping entries", () => {
  it("drops an entry exactly 5000 ms after its last subscriber leaves", async () => {
    const { store, query, reads } = controlledQuery();
    const entry = query.entry("a");
    const unsubscribe = entry.subscribe(() => {});
    reads[0]!.answer.resolve("A");
    await flush();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(store.has(entry.key)).toBe(true);
    unsubscribe();
    await vi.advanceTimersByTimeAsync(4999);
    expect(store.has(entry.key)).toBe(true);
    await vi.advanceTimersByTimeAsync(1);
    expect(store.has(entry.key)).toBe(false);
    const fresh = query.entry("a").get();
    expect(reads).toHaveLength(2);
    reads[1]!.answer.resolve("A again");
    expect(await fresh).toBe("A again");
  });

  it("keeps the entry, and its value, when a subscriber comes back at 4999 ms", async () => {
    const { store, query, reads } = controlledQuery();
    const entry = query.entry("a");
    const unsubscribe = entry.subscribe(() => {});
    reads[0]!.answer.resolve("A");
    await flush();
    unsubscribe();
    await vi.advanceTimersByTimeAsync(4999);
    const again = query.entry("a");
    expect(again).toBe(entry);
    const unsubscribeAgain = again.subscribe(() => {});
    await vi.advanceTimersByTimeAsync(10_000);
    expect(store.has(entry.key)).toBe(true);
    expect(again.getSnapshot()).toEqual({ status: "ok", value: "A" });
    expect(reads).toHaveLength(1);
    unsubscribeAgain();
    await vi.advanceTimersByTimeAsync(5000);
    expect(store.has(entry.key)).toBe(false);
  });

  it("drops an entry never subscribed to 5000 ms after its read, not while the read is under way", async () => {
    const { store, query, reads } = controlledQuery();
    const read = query.get("a");
    const key = query.entry("a").key;
    await vi.advanceTimersByTimeAsync(7000);
    expect(store.has(key)).toBe(true);
    reads[0]!.answer.resolve("A");
    expect(await read).toBe("A");
    await vi.advanceTimersByTimeAsync(4999);
    expect(store.has(key)).toBe(true);
    await vi.advanceTimersByTimeAsync(1);
    expect(store.has(key)).toBe(false);
  });
});

describe("refreshing", () => {
  it("answers a burst of invalidations with one read in flight and one queued, starts 300 ms apart", async () => {
    const { query, reads } = controlledQuery();
    const entry = query.entry("a");
    entry.subscribe(() => {});
    reads[0]!.answer.resolve("first");
    await flush();

    for (let i = 0; i < 20; i++) entry.invalidate();
    await flush();
    // The last read started 0 ms ago: the next waits for the throttle.
    expect(reads).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(300);
    expect(reads).toHaveLength(2);
    for (let i = 0; i < 20; i++) entry.invalidate();
    await vi.advanceTimersByTimeAsync(5000);
    // One in flight (reads[1], unanswered) and one queued behind it.
    expect(reads).toHaveLength(2);
    reads[1]!.answer.resolve("stale");
    await flush();
    expect(reads).toHaveLength(3);
    // The answer of a read started before the latest invalidation is not shown.
    expect(entry.getSnapshot()).toEqual({ status: "ok", value: "first" });
    reads[2]!.answer.resolve("latest");
    await flush();
    expect(entry.getSnapshot()).toEqual({ status: "ok", value: "latest" });
    expect(reads[1]!.startedAt - reads[0]!.startedAt).toBeGreaterThanOrEqual(300);
    expect(reads[2]!.startedAt - reads[1]!.startedAt).toBeGreaterThanOrEqual(300);
  });

  it("settles _settled() once the reads requested so far have finished, one queued behind the throttle too, and not a later one", async () => {
    const { query, reads } = controlledQuery();
    const entry = query.entry("a");
    entry.subscribe(() => {});
    reads[0]!.answer.resolve("first");
    await entry._settled();
    expect(entry._reading).toBe(false);

    entry.invalidate();
    expect(entry._reading).toBe(true);
    let settled = false;
    void entry._settled().then(() => (settled = true));
    await vi.advanceTimersByTimeAsync(300);
    expect(reads).toHaveLength(2);
    expect(settled).toBe(false);
    // Requested after the _settled() call: not waited for, but told by _reading.
    entry.invalidate();
    reads[1]!.answer.reject(new Error("refused"));
    await flush();
    expect(settled).toBe(true);
    expect(entry._reading).toBe(true);
    await vi.advanceTimersByTimeAsync(300);
    expect(reads).toHaveLength(3);
    reads[2]!.answer.resolve("latest");
    await entry._settled();
    expect(entry._reading).toBe(false);
    expect(entry.getSnapshot()).toEqual({ status: "ok", value: "latest" });
  });

  it("marks an entry nobody shows as stale, and reads it on the next get", async () => {
    const { query, reads } = controlledQuery();
    const first = query.get("a");
    reads[0]!.answer.resolve("A");
    expect(await first).toBe("A");
    query.entry("a").invalidate();
    await vi.advanceTimersByTimeAsync(1000);
    expect(reads).toHaveLength(1);
    const second = query.get("a");
    expect(reads).toHaveLength(2);
    reads[1]!.answer.resolve("B");
    expect(await second).toBe("B");
  });

  it("invalidates every entry about one argument", async () => {
    const store = new CacheStore();
    const session = {};
    let reads = 0;
    const user = new CachedQuery(store, "user", async (_: object) => ++reads);
    const channels = new CachedQuery(store, "channels", async (_: object, who: string) => `${who}${++reads}`);
    const other = new CachedQuery(store, "other", async () => ++reads);
    for (const entry of [user.entry(session), channels.entry(session, "me"), other.entry()]) entry.subscribe(() => {});
    await flush();
    expect(reads).toBe(3);
    store.invalidateAbout(session);
    await vi.advanceTimersByTimeAsync(300);
    expect(reads).toBe(5);
    expect(other.entry().getSnapshot()).toEqual({ status: "ok", value: 3 });
  });
});

describe("suspending", () => {
  it("gives the same pending promise until a value arrives, across invalidations", async () => {
    const { query, reads } = controlledQuery();
    const entry = query.entry("a");
    const first = entry.getSnapshot();
    expect(first.status).toBe("pending");
    expect(entry.getSnapshot()).toBe(first);
    entry.invalidate();
    expect(entry.getSnapshot()).toBe(first);
    let arrived = false;
    void (first as { promise: Promise<void> }).promise.then(() => (arrived = true));
    reads[0]!.answer.resolve("old");
    await vi.advanceTimersByTimeAsync(300);
    expect(arrived).toBe(false);
    expect(reads).toHaveLength(2);
    reads[1]!.answer.resolve("new");
    await flush();
    expect(arrived).toBe(true);
    const shown = entry.getSnapshot();
    expect(shown).toEqual({ status: "ok", value: "new" });
    expect(entry.getSnapshot()).toBe(shown);
  });

  it("keeps the promise of the latest wait as the entry's arrival, marked fulfilled for React once settled", async () => {
    const { query, reads } = controlledQuery();
    const entry = query.entry("a");
    const pending = entry.getSnapshot() as { status: "pending"; promise: Promise<void> };
    expect(entry.arrival).toBe(pending.promise);
    expect(pending.promise).not.toHaveProperty("status");
    reads[0]!.answer.resolve("A");
    await flush();
    expect(entry.arrival).toBe(pending.promise);
    expect(pending.promise).toMatchObject({ status: "fulfilled" });
  });
});

describe("errors", () => {
  it("keeps a failure as the entry's error without retrying in a loop, and retries on the next subscription", async () => {
    const { query, reads } = controlledQuery();
    const entry = query.entry("a");
    entry.subscribe(() => {});
    const failure = new Error("server down");
    reads[0]!.answer.reject(failure);
    await flush();
    expect(entry.getSnapshot()).toEqual({ status: "error", error: failure });
    await vi.advanceTimersByTimeAsync(60_000);
    for (let i = 0; i < 5; i++) entry.getSnapshot();
    expect(reads).toHaveLength(1);

    entry.subscribe(() => {});
    expect(reads).toHaveLength(2);
    expect(entry.getSnapshot().status).toBe("pending");
    reads[1]!.answer.resolve("back");
    await flush();
    expect(entry.getSnapshot()).toEqual({ status: "ok", value: "back" });
  });

  it("retries a failed entry on invalidation and on get()", async () => {
    const { query, reads } = controlledQuery();
    const entry = query.entry("a");
    entry.subscribe(() => {});
    reads[0]!.answer.reject(new Error("one"));
    await flush();
    entry.invalidate();
    await vi.advanceTimersByTimeAsync(300);
    expect(reads).toHaveLength(2);
    reads[1]!.answer.reject(new Error("two"));
    await flush();
    expect(entry.getSnapshot()).toMatchObject({ status: "error", error: new Error("two") });
    await expect(Promise.race([entry.get(), vi.advanceTimersByTimeAsync(300).then(() => "waiting")])).resolves.toBe("waiting");
    expect(reads).toHaveLength(3);
    const retried = entry.get();
    reads[2]!.answer.resolve("three");
    expect(await retried).toBe("three");
  });

  it("rejects get() with the read's error", async () => {
    const { query, reads } = controlledQuery();
    const read = query.get("a");
    reads[0]!.answer.reject(new Error("nope"));
    await expect(read).rejects.toThrow("nope");
  });
});

describe("reset: what is shown no longer holds", () => {
  it("a subscribed entry shows pending at once and reads again; its promise settles with the new value", async () => {
    const { query, reads } = controlledQuery();
    const entry = query.entry("a");
    entry.subscribe(() => {});
    reads[0]!.answer.resolve("old");
    await flush();
    expect(entry.getSnapshot()).toEqual({ status: "ok", value: "old" });
    entry.reset();
    const shown = entry.getSnapshot();
    expect(shown.status).toBe("pending");
    // Reads of one entry start at least the throttle apart.
    await vi.advanceTimersByTimeAsync(1000);
    expect(reads).toHaveLength(2);
    reads[1]!.answer.resolve("new");
    if (shown.status === "pending") await shown.promise;
    expect(entry.getSnapshot()).toEqual({ status: "ok", value: "new" });
  });

  it("an entry nobody subscribes to reads again on the next get(), never answering with the old value", async () => {
    const { query, reads } = controlledQuery();
    const first = query.get("a");
    reads[0]!.answer.resolve("old");
    expect(await first).toBe("old");
    query.entry("a").reset();
    expect(reads).toHaveLength(1);
    const next = query.get("a");
    await vi.advanceTimersByTimeAsync(1000);
    expect(reads).toHaveLength(2);
    reads[1]!.answer.resolve("new");
    expect(await next).toBe("new");
  });

  it("a read under way when reset is not shown; the read after it is, and the pending promise settles once", async () => {
    const { query, reads } = controlledQuery();
    const entry = query.entry("a");
    entry.subscribe(() => {});
    const pending = entry.getSnapshot();
    expect(reads).toHaveLength(1);
    entry.reset();
    entry.reset();
    reads[0]!.answer.resolve("stale");
    await flush();
    expect(entry.getSnapshot().status).toBe("pending");
    // The reads run one at a time: the one asked for after the resets starts once the stale one is done.
    await vi.advanceTimersByTimeAsync(1000);
    expect(reads.length).toBeGreaterThanOrEqual(2);
    reads[reads.length - 1]!.answer.resolve("fresh");
    await flush();
    expect(entry.getSnapshot()).toEqual({ status: "ok", value: "fresh" });
    if (pending.status === "pending") await pending.promise;
  });
});

describe("an entry subscribed to after it was dropped", () => {
  it("is read anew before it is shown: no reset or invalidation reached it while dropped", async () => {
    const { query, reads } = controlledQuery(new CacheStore({ dropAfterMs: 1000, throttleMs: 0 }));
    const entry = query.entry("a");
    const first = query.get("a");
    reads[0]!.answer.resolve("before");
    expect(await first).toBe("before");
    await vi.advanceTimersByTimeAsync(1001);
    // Dropped: a new entry would be made for the key; the old one is still held by a slow render.
    expect(query.entry("a")).not.toBe(entry);
    entry.subscribe(() => {});
    expect(entry.getSnapshot().status).toBe("pending");
    await flush();
    reads[reads.length - 1]!.answer.resolve("after");
    await flush();
    expect(entry.getSnapshot()).toEqual({ status: "ok", value: "after" });
  });
});
