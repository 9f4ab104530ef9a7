/**
 * The demo app (apps/demo) built once per test run, and served per test file with that file's server and project.
 *
 * A Vite dev server per file made every browser context fetch and transform the app's hundreds of source modules
 * again, and pre-bundle its dependencies again, which made the browser files the slowest of the suite. The build
 * reads the variables a file differs in (API URL, project, keys) from `window.__LATCHKEY_DEMO_ENV__`, which the
 * static server below writes into index.html, so one build serves every file.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { dirname, extname, join, normalize, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { sourcesFingerprint } from "../../../../scripts/lib/fingerprint.mjs";

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../../../..");

const demoRoot = join(repoRoot, "apps", "demo");
/** vitest.config.ts sets it per checkout, so two checkouts never share one build. */
const demoDist = process.env.LATCHKEY_DEMO_OUT || join(tmpdir(), "latchkey-demo-test");
const STAMP = join(demoDist, ".sources");

/** The variables the demo app reads (import.meta.env), each given per test file. */
export const DEMO_ENV_NAMES = [
  "VITE_LATCHKEY_API_URL",
  "VITE_LATCHKEY_PROJECT_ID",
  "VITE_LATCHKEY_PUBLISHABLE_CLIENT_KEY",
  "VITE_LATCHKEY_TURNSTILE_SITE_KEY",
] as const;
export type DemoEnv = Partial<Record<(typeof DEMO_ENV_NAMES)[number], string>>;

const SOURCES = ["apps/demo", "packages/js/src", "packages/react/src", "packages/shared/src", "package-lock.json"];
const fingerprint = () => sourcesFingerprint(repoRoot, SOURCES);

/** Builds the demo app into its test directory unless the build there is of the current sources. */
export async function ensureDemoBuilt(): Promise<string> {
  if (existsSync(STAMP) && readFileSync(STAMP, "utf8") === fingerprint()) return demoDist;
  const wanted = fingerprint();
  const { build } = await import("vite");
  await build({
    root: demoRoot,
    configFile: join(demoRoot, "vite.config.ts"),
    logLevel: "warn",
    // The development build of React, as `npm run demo` runs it: its warnings reach the tests' logs.
    mode: "development",
    define: Object.fromEntries(DEMO_ENV_NAMES.map((name) => [`import.meta.env.${name}`, `window.__LATCHKEY_DEMO_ENV__.${name}`])),
    build: { outDir: demoDist, emptyOutDir: true, minify: false, sourcemap: true },
  });
  writeFileSync(STAMP, wanted);
  return demoDist;
}

const CONTENT_TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".map": "application/json",
  ".svg": "image/svg+xml",
};

/**
 * Serves the built demo app on 127.0.0.1 with `env`: a file of the build when the path names one, else index.html
 * (the app routes on the client, as Vite's dev server answered every path).
 */
export async function serveDemo(env: DemoEnv): Promise<{ url: string; close(): Promise<void> }> {
  const dist = await ensureDemoBuilt();
  const envScript = `<script>window.__LATCHKEY_DEMO_ENV__ = ${JSON.stringify(env).replaceAll("<", "\\u003c")};</script>`;
  const index = readFileSync(join(dist, "index.html"), "utf8").replace("<head>", `<head>${envScript}`);
  const server: Server = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url ?? "/", "http://demo").pathname));
    const file = join(dist, path);
    const isAsset = file.startsWith(dist + sep) && !path.endsWith("/") && existsSync(file) && !path.includes("/.");
    if (isAsset && extname(file) !== ".html") {
      res.writeHead(200, { "content-type": CONTENT_TYPES[extname(file)] ?? "application/octet-stream" });
      res.end(readFileSync(file));
      return;
    }
    res.writeHead(200, { "content-type": CONTENT_TYPES[".html"], "cache-control": "no-store" });
    res.end(index);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (!address || typeof address === "string") throw new Error("The demo app's server is not listening on a TCP port.");
  return {
    url: `http://127.0.0.1:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
