/**
 * The demo app (apps/demo) served by Vite against a Latchkey server, and
 * Debian's Chromium to drive it: what every browser test starts with.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium, type Browser } from "playwright-core";
import { createServer } from "vite";
import { ensureChromium } from "../../../../scripts/ensure-chromium.mjs";

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../../../..");
const demoRoot = join(repoRoot, "apps", "demo");

export interface DemoApp {
  /** Where the demo app is served. */
  url: string;
  browser: Browser;
  close(): Promise<void>;
}

/** `env`: the VITE_* variables the app reads (its API URL, project id, keys…). */
export async function startDemoApp(env: Record<string, string>): Promise<DemoApp> {
  const executablePath = ensureChromium();
  // Vite hands the VITE_* variables of its own process to the app (import.meta.env).
  Object.assign(process.env, env);
  // Vite's own dependency cache, so a `npm run demo` running alongside is left alone.
  const cacheDir = mkdtempSync(join(tmpdir(), "latchkey-demo-vite-"));
  const vite = await createServer({
    root: demoRoot,
    configFile: join(demoRoot, "vite.config.ts"),
    server: { port: 0, host: "127.0.0.1", strictPort: false },
    cacheDir,
    logLevel: "warn",
    clearScreen: false,
  });
  await vite.listen();
  const address = vite.httpServer?.address();
  if (!address || typeof address === "string") throw new Error("Vite is not listening on a TCP port.");
  const browser = await chromium.launch({
    executablePath,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
  });
  return {
    url: `http://127.0.0.1:${address.port}`,
    browser,
    async close() {
      await browser.close();
      await vite.close();
      for (const name of Object.keys(env)) delete process.env[name];
      rmSync(cacheDir, { recursive: true, force: true });
    },
  };
}
