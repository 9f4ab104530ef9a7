/**
 * A real Latchkey server for SDK tests (the server package's own test
 * harness, on a loopback port), and a fetch that counts what the SDK sends.
 */
import { vi } from "vitest";
import type { CacheEntry, CacheSnapshot } from "../../src/index.ts";
import { createTestServer, SEED_KEYS, type TestServer } from "../../../server/test/harness.ts";

export { SEED_KEYS, type TestServer };

export async function startServer(
  overrides: Parameters<typeof createTestServer>[0] = {},
): Promise<{ server: TestServer; baseUrl: string }> {
  const server = await createTestServer(overrides);
  return { server, baseUrl: await server.listen() };
}

/**
 * Moves the SDK's time (it reads Date.now()) `millis` ahead, e.g. past its cache's throttle, instead of
 * sleeping through them; time then runs on from there. vi.restoreAllMocks() puts the real clock back.
 */
export function skipAhead(millis: number): void {
  const from = Date.now() + millis; // from the time already moved, if it was
  const start = performance.now();
  vi.spyOn(Date, "now").mockImplementation(() => from + (performance.now() - start));
}

let counter = 0;
export function uniqueEmail(prefix = "sdk"): string {
  counter += 1;
  return `${prefix}-${Date.now().toString(36)}-${counter}-${Math.random().toString(36).slice(2, 8)}@example.com`;
}

export const PASSWORD = "a long enough password 1";

/** The real fetch, recording each request's method and path (under /api/v1). */
export function countingFetch(): { fetch: typeof fetch; calls: { method: string; path: string }[] } {
  const calls: { method: string; path: string }[] = [];
  const wrapped: typeof fetch = (input, init) => {
    const url = new URL(typeof input === "string" || input instanceof URL ? input : input.url);
    calls.push({ method: (init?.method ?? "GET").toUpperCase(), path: url.pathname.replace(/^\/api\/v1/, "") });
    return fetch(input, init);
  };
  return { fetch: wrapped, calls };
}

/** Resolves with the first snapshot `accept` takes, seen by a subscriber (as a hook would see it). */
export function nextSnapshot<T>(
  entry: CacheEntry<T>,
  accept: (snapshot: CacheSnapshot<T>) => boolean,
): { seen: Promise<T>; unsubscribe(): void } {
  let unsubscribe = () => {};
  const seen = new Promise<T>((resolve, reject) => {
    const check = () => {
      const snapshot = entry.getSnapshot();
      if (snapshot.status === "error") reject(snapshot.error);
      else if (snapshot.status === "ok" && accept(snapshot)) resolve(snapshot.value);
    };
    unsubscribe = entry.subscribe(check);
    check();
  });
  return { seen, unsubscribe: () => unsubscribe() };
}
