/**
 * IndexedLru keeps, per index, every key whose value names an owner: a key
 * missing from its owner's set would outlive the event that should drop it.
 * Each way a value arrives or leaves is checked against the index.
 */
import { describe, expect, it } from "vitest";
import { IndexedLru } from "../../src/cache/indexed-lru.ts";

interface Entry {
  project: string;
  teams?: string[];
}

function cache(max = 10, now?: () => number) {
  return new IndexedLru<Entry, "project" | "team">({
    max,
    ttlMillis: 60_000,
    now,
    indexes: { project: (value) => value.project, team: (value) => value.teams },
  });
}

describe("IndexedLru", () => {
  it("indexes a value under each owner it names, and deletes by owner only those entries", () => {
    const c = cache();
    c.set("a", { project: "p1", teams: ["t1", "t2"] });
    c.set("b", { project: "p1" });
    c.set("c", { project: "p2", teams: ["t2"] });
    expect(c.keysOwnedBy("project", "p1").sort()).toEqual(["a", "b"]);
    expect(c.keysOwnedBy("team", "t2").sort()).toEqual(["a", "c"]);
    expect(c.deleteOwnedBy("team", "t2")).toBe(2);
    expect(c.get("a")).toBeUndefined();
    expect(c.get("c")).toBeUndefined();
    expect(c.get("b")).toEqual({ project: "p1" });
    // The deleted entries left every index, not only the one they were deleted by.
    expect(c.keysOwnedBy("project", "p1")).toEqual(["b"]);
    expect(c.keysOwnedBy("team", "t1")).toEqual([]);
    expect(c.ownerCount("team")).toBe(0);
    expect(c.deleteOwnedBy("project", "nobody")).toBe(0);
  });

  it("moves a key overwritten with a value of another owner, so the new owner's event drops it", () => {
    const c = cache();
    c.set("a", { project: "p1", teams: ["t1"] });
    c.set("a", { project: "p2", teams: ["t1", "t3"] });
    expect(c.keysOwnedBy("project", "p1")).toEqual([]);
    expect(c.keysOwnedBy("project", "p2")).toEqual(["a"]);
    expect(c.keysOwnedBy("team", "t1")).toEqual(["a"]);
    expect(c.deleteOwnedBy("team", "t3")).toBe(1);
    expect(c.get("a")).toBeUndefined();
    expect(c.ownerCount("project")).toBe(0);
  });

  it("keeps a key overwritten with the same owner, or with the very same value, indexed", () => {
    const c = cache();
    const value = { project: "p1" };
    c.set("a", value);
    c.set("a", value);
    c.set("a", { project: "p1" });
    expect(c.keysOwnedBy("project", "p1")).toEqual(["a"]);
    c.deleteOwnedBy("project", "p1");
    expect(c.get("a")).toBeUndefined();
  });

  it("forgets an evicted entry, and still finds the entries that stayed", () => {
    const c = cache(2);
    c.set("a", { project: "p1" });
    c.set("b", { project: "p1" });
    c.get("a"); // b is now the least recently used
    c.set("c", { project: "p2" });
    expect(c.size).toBe(2);
    expect(c.get("b")).toBeUndefined();
    expect(c.keysOwnedBy("project", "p1")).toEqual(["a"]);
    expect(c.keysOwnedBy("project", "p2")).toEqual(["c"]);
    c.deleteOwnedBy("project", "p1");
    expect(c.get("a")).toBeUndefined();
    expect(c.get("c")).toEqual({ project: "p2" });
  });

  it("forgets an entry deleted by key", () => {
    const c = cache();
    c.set("a", { project: "p1", teams: ["t1"] });
    c.set("b", { project: "p1" });
    c.delete("a");
    expect(c.keysOwnedBy("project", "p1")).toEqual(["b"]);
    expect(c.ownerCount("team")).toBe(0);
    // Set again after the delete: indexed again.
    c.set("a", { project: "p3" });
    expect(c.deleteOwnedBy("project", "p3")).toBe(1);
    expect(c.get("a")).toBeUndefined();
  });

  it("forgets everything on clear, and indexes what is set afterwards", () => {
    const c = cache();
    c.set("a", { project: "p1", teams: ["t1"] });
    c.set("b", { project: "p2" });
    c.clear();
    expect(c.size).toBe(0);
    expect(c.ownerCount("project")).toBe(0);
    expect(c.ownerCount("team")).toBe(0);
    c.set("a", { project: "p1" });
    expect(c.keysOwnedBy("project", "p1")).toEqual(["a"]);
  });

  it("forgets an entry that expired when it is found stale", () => {
    let now = 1_000;
    const c = cache(10, () => now);
    c.set("a", { project: "p1" });
    now += 60_001;
    expect(c.get("a")).toBeUndefined();
    expect(c.ownerCount("project")).toBe(0);
  });

  it("holds no more keys than entries through many sets, overwrites, evictions and deletes", () => {
    const c = cache(50);
    for (let i = 0; i < 2_000; i++) {
      const key = `k${(i * 7) % 120}`;
      if (i % 11 === 0) c.delete(key);
      else if (i % 97 === 0) c.deleteOwnedBy("project", `p${i % 5}`);
      else c.set(key, { project: `p${i % 5}`, teams: [`t${i % 3}`, `t${i % 4}`] });
    }
    let indexed = 0;
    for (let p = 0; p < 5; p++) {
      for (const key of c.keysOwnedBy("project", `p${p}`)) {
        expect(c.get(key)?.project).toBe(`p${p}`);
        indexed++;
      }
    }
    expect(indexed).toBe(c.size);
  });
});
