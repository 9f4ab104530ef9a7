/**
 * Setup file of the projects whose test files share a worker's modules (`isolate: false` in vitest.config.ts): what
 * a file stubbed (Date.now, fetch, fake timers, env) ends with the file, so the next file in the worker starts clean.
 */
import { afterAll, vi } from "vitest";

afterAll(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
  vi.unstubAllGlobals();
});
