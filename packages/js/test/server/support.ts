/**
 * A real Latchkey server for SDK tests (the server package's own test
 * harness, on a loopback port), and a fetch that counts what the SDK sends.
 */
import { createTestServer, SEED_KEYS, type TestServer } from "../../../server/test/harness.ts";

export { SEED_KEYS, type TestServer };

export async function startServer(
  overrides: Parameters<typeof createTestServer>[0] = {},
): Promise<{ server: TestServer; baseUrl: string }> {
  const server = await createTestServer(overrides);
  return { server, baseUrl: await server.listen() };
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
