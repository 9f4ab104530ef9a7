/**
 * Where a test run puts what it builds for the browser tests: the dashboard, the packed SDK and the demo app, one
 * directory each per checkout, outside the source tree, so a test run never replaces the files a running
 * `npm start` serves and two checkouts never share a build. Both vitest.config.ts and scripts/test.mjs (which
 * builds them beside the type checks) set these before anything reads them; a variable already set wins.
 */
import { createHash } from "node:crypto";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const checkoutId = createHash("sha256").update(repoRoot).digest("hex").slice(0, 12);

export function setTestOutputs() {
  process.env.LATCHKEY_DASHBOARD_OUT ??= join(tmpdir(), `latchkey-dashboard-test-${checkoutId}`);
  process.env.LATCHKEY_SDK_OUT ??= join(tmpdir(), `latchkey-sdk-test-${checkoutId}`);
  process.env.LATCHKEY_DEMO_OUT ??= join(tmpdir(), `latchkey-demo-test-${checkoutId}`);
}
