/**
 * The cache hooks while server rendering waits for Suspense (prerender): a
 * suspended read renders its value once it arrives, and components reading
 * the same query share one read.
 */
import { describe, expect, it } from "vitest";
import { Suspense } from "react";
import { prerender } from "react-dom/static";
import { CachedQuery, CacheStore } from "../../../js/src/cache/index.ts";
import type { CacheEntry } from "@latchkey/js";
import { useCacheEntry } from "../../src/use-cache-entry.ts";

function Shown({ entry }: { entry: CacheEntry<string> }) {
  return <p>{useCacheEntry(entry)}</p>;
}

async function html(node: React.ReactNode): Promise<string> {
  const { prelude } = await prerender(node);
  // Without React's Suspense boundary markers.
  return (await new Response(prelude).text()).replace(/<!--[^>]*-->/g, "");
}

describe("useCacheEntry", () => {
  it("suspends until the value arrives, with one read for every component of the query", async () => {
    let reads = 0;
    const query = new CachedQuery(new CacheStore(), "greeting", async (name: string) => {
      reads += 1;
      await new Promise((resolve) => setTimeout(resolve, 20));
      return `Hello, ${name}`;
    });
    const markup = await html(
      <Suspense fallback={<p>Loading</p>}>
        <Shown entry={query.entry("Ada")} />
        <Shown entry={query.entry("Ada")} />
      </Suspense>,
    );
    expect(markup).toBe("<p>Hello, Ada</p><p>Hello, Ada</p>");
    expect(reads).toBe(1);
  });

  it("renders a value already cached without suspending or reading again", async () => {
    let reads = 0;
    const query = new CachedQuery(new CacheStore(), "n", async () => ++reads);
    expect(await query.get()).toBe(1);
    function Count() {
      return <p>{useCacheEntry(query.entry())}</p>;
    }
    expect(await html(<Count />)).toBe("<p>1</p>");
    expect(reads).toBe(1);
  });
});
