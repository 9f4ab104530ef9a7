#!/usr/bin/env node
// `npm run check:nextjs`: checks that the packed @latchkey/js and
// @latchkey/react work in a Next.js (App Router) production build, as an app
// outside this repository would use them. Not part of `npm test`: it installs
// Next.js (~100 MB) from the npm registry into a temporary directory.
//
//   1. builds and packs @latchkey/js and @latchkey/react;
//   2. creates a Next.js app in a temp dir that installs the tarballs;
//   3. starts a Latchkey server (temp data, free port), provisions a project,
//      then `next build` and `next start`;
//   4. in Chromium: signed out on "/", sign up on /handler/sign-up, the user
//      menu on "/", and no page errors (e.g. hydration mismatches) anywhere.
//
// Everything it starts or creates is removed at the end, on failure and on Ctrl-C too.
import { spawn } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { chromium } from "playwright-core";
import { ensureChromium } from "./ensure-chromium.mjs";
import { newInternalPublishableClientKey, provisionProject, startLatchkeyServer } from "./lib/latchkey-server.mjs";
import { ensureSdkPacked, SDK_PACKAGES } from "./lib/sdk-build.mjs";

const started = Date.now();
const tmp = mkdtempSync(join(tmpdir(), "latchkey-nextjs-"));
const appDir = join(tmp, "app");
const children = new Set(); // one-shot commands still running, stopped on cleanup
let server = null;
let next = null;
let browser = null;
let cleaningUp = null;
let interrupted = false;

for (const [signal, code] of [
  ["SIGINT", 130],
  ["SIGTERM", 143],
]) {
  process.on(signal, () => {
    interrupted = true;
    process.exitCode = code;
    console.error(`\n${signal}: stopping and cleaning up…`);
    void cleanup().finally(() => process.exit());
  });
}

try {
  console.log("Building and packing @latchkey/js and @latchkey/react (when their sources changed)…");
  const sdkDir = await ensureSdkPacked({ log: () => {} });
  mkdirSync(appDir);
  const tarballs = SDK_PACKAGES.map(({ tarball }) => {
    copyFileSync(join(sdkDir, tarball), join(appDir, tarball));
    return `./${tarball}`;
  });

  console.log(`Installing Next.js 16 and ${tarballs.join(", ")} in ${appDir}…`);
  writeAppFiles();
  await run(
    "npm",
    ["install", "--no-audit", "--no-fund", "next@16", "react", "react-dom", "typescript@~5.9", "@types/react", "@types/node", ...tarballs],
    {
      cwd: appDir,
    },
  );
  const nextVersion = JSON.parse(readFileSync(join(appDir, "node_modules", "next", "package.json"), "utf8")).version;

  console.log("Starting a Latchkey server and provisioning a project…");
  const internalPublishableClientKey = newInternalPublishableClientKey();
  // The server's output is kept, and shown only if the check fails.
  server = startLatchkeyServer({
    port: await freePort(),
    dataDir: join(tmp, "data"),
    internalPublishableClientKey,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const serverLog = collectOutput(server.process);
  await server.waitUntilReady();
  const project = await provisionProject(server.apiUrl, {
    internalPublishableClientKey,
    displayName: "Next.js check",
    keyDescription: "Next.js check (scripts/check-nextjs.mjs)",
    ownerEmailPrefix: "nextjs-owner",
  });

  // NEXT_PUBLIC_* variables are inlined into the client bundle by `next build`.
  const nextEnv = {
    ...process.env,
    NEXT_TELEMETRY_DISABLED: "1",
    NEXT_PUBLIC_LATCHKEY_API_URL: server.apiUrl,
    NEXT_PUBLIC_LATCHKEY_PROJECT_ID: project.projectId,
    NEXT_PUBLIC_LATCHKEY_PUBLISHABLE_CLIENT_KEY: project.publishableClientKey,
  };
  const nextBin = join(appDir, "node_modules", ".bin", "next");
  console.log(`Building the Next.js ${nextVersion} app…`);
  await run(nextBin, ["build"], { cwd: appDir, env: nextEnv });

  const appPort = await freePort();
  const appUrl = `http://localhost:${appPort}`;
  // Its own process group, so stopping it also stops any worker it forks.
  next = spawn(nextBin, ["start", "-p", String(appPort)], { cwd: appDir, env: nextEnv, stdio: ["ignore", "pipe", "pipe"], detached: true });
  const nextLog = collectOutput(next);
  await waitForHttp(appUrl, next, nextLog);

  console.log(`Checking ${appUrl} in Chromium…`);
  try {
    const email = await checkInBrowser(appUrl);
    console.log(
      [
        "",
        `  Next.js check passed (Next.js ${nextVersion}, ${Math.round((Date.now() - started) / 1000)} s):`,
        `    / signed out shows "Sign in"; /handler/sign-up signed up ${email};`,
        `    / then shows the account menu (e-mail, "Account settings", "Sign out");`,
        `    no page errors, no hydration mismatch, also after a reload.`,
        "",
      ].join("\n"),
    );
  } catch (error) {
    // What the servers said may explain it (e.g. a refused request).
    console.error(`\n--- next start output (last lines) ---\n${nextLog.tail()}`);
    console.error(`--- Latchkey server output (last lines) ---\n${serverLog.tail()}`);
    throw error;
  }
} catch (error) {
  // When interrupted, commands fail because cleanup stopped them: nothing to report.
  if (!interrupted) {
    console.error(`\nNext.js check FAILED: ${error instanceof Error ? error.message : error}`);
    process.exitCode = 1;
  }
} finally {
  await cleanup();
}

/** Signs up in a fresh browser and checks what the Next.js app shows; returns the new user's e-mail. */
async function checkInBrowser(appUrl) {
  browser = await chromium.launch({
    executablePath: ensureChromium(),
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
  });
  const page = await (await browser.newContext()).newPage();
  page.setDefaultTimeout(15_000);
  // Page errors fail the check: React reports a hydration mismatch as one
  // ("Minified React error #418"). Console errors are shown, for context.
  const pageErrors = [];
  const consoleErrors = [];
  page.on("pageerror", (error) => pageErrors.push(`${page.url()}: ${error.message}`));
  page.on("console", (message) => {
    if (message.type() !== "error") return;
    // The resource's own address says which request failed. The app has no
    // icon, so Chromium's 404 for /favicon.ico is expected.
    const source = message.location().url;
    if (source.endsWith("/favicon.ico")) return;
    consoleErrors.push(`${page.url()}: ${message.text()}${source && source !== page.url() ? ` (${source})` : ""}`);
  });

  /** Runs one expectation; fails with its description, and on any page error so far. */
  async function expect(description, action) {
    try {
      await action();
    } catch (error) {
      // Playwright's first line says what timed out; its call log, what it waited for.
      const lines = error instanceof Error ? error.message.split("\n") : [String(error)];
      const waitedFor = lines.find((line) => line.includes("waiting for"))?.trim();
      const reason = waitedFor ? `${lines[0]} (${waitedFor})` : lines[0];
      throw new Error(`${description} — not met at ${page.url()}: ${reason}${errorsSoFar()}`, { cause: error });
    }
    if (pageErrors.length) throw new Error(`page error after: ${description}${errorsSoFar()}`);
  }
  const errorsSoFar = () =>
    [
      ...(pageErrors.length ? ["\n  Page errors:", ...pageErrors.map((e) => `    ${e}`)] : []),
      ...(consoleErrors.length ? ["\n  Console errors:", ...consoleErrors.map((e) => `    ${e}`)] : []),
    ].join("\n");

  const email = `nextjs-${Date.now().toString(36)}@example.com`;
  const menuButton = page.getByRole("button", { name: "Account menu" });
  const userMenuIsRight = async () => {
    await menuButton.click();
    const menu = page.getByRole("menu");
    await menu.getByText(email).waitFor();
    await menu.getByRole("menuitem", { name: "Account settings" }).waitFor();
    await menu.getByRole("menuitem", { name: "Sign out" }).waitFor();
  };

  await expect('signed out, "/" shows a "Sign in" link', async () => {
    await page.goto(`${appUrl}/`);
    await page.getByRole("link", { name: "Sign in" }).waitFor();
  });
  await expect("/handler/sign-up signs up and returns to /", async () => {
    await page.goto(`${appUrl}/handler/sign-up`);
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password", { exact: true }).fill("correct horse battery staple");
    await page.getByLabel("Repeat password").fill("correct horse battery staple");
    await page.getByRole("button", { name: "Sign up" }).click();
    await page.waitForURL(`${appUrl}/`);
  });
  await expect('signed in, "Account menu" opens a menu with the e-mail, "Account settings" and "Sign out"', userMenuIsRight);
  await expect("after a reload of /, the user menu is still right", async () => {
    await page.reload();
    await userMenuIsRight();
    // Give a late hydration error time to surface.
    await page.waitForLoadState("networkidle");
  });
  if (consoleErrors.length)
    console.log(`  Console errors (shown, not counted as failures):\n${consoleErrors.map((e) => `    ${e}`).join("\n")}`);
  return email;
}

/** The Next.js app: a client provider, a layout, a home page with UserButton, and the handler route. */
function writeAppFiles() {
  const files = {
    "package.json": `${JSON.stringify({ name: "latchkey-nextjs-check", private: true }, null, 2)}\n`,
    "app/providers.tsx": `"use client";
import { StackClientApp } from "@latchkey/js";
import { StackProvider } from "@latchkey/react";
import type { ReactNode } from "react";

const app = new StackClientApp({
  baseUrl: process.env.NEXT_PUBLIC_LATCHKEY_API_URL,
  projectId: process.env.NEXT_PUBLIC_LATCHKEY_PROJECT_ID ?? "",
  publishableClientKey: process.env.NEXT_PUBLIC_LATCHKEY_PUBLISHABLE_CLIENT_KEY,
  tokenStore: "cookie",
});

export function Providers({ children }: { children: ReactNode }) {
  return <StackProvider app={app}>{children}</StackProvider>;
}
`,
    "app/layout.tsx": `import type { ReactNode } from "react";
import { Providers } from "./providers";

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <Providers>{children}</Providers>
      </body>
    </html>
  );
}
`,
    "app/page.tsx": `import { UserButton } from "@latchkey/react";
import { Suspense } from "react";

export default function Home() {
  return (
    <main>
      <h1>Latchkey in Next.js</h1>
      <Suspense fallback={null}>
        <UserButton />
      </Suspense>
    </main>
  );
}
`,
    "app/handler/[[...path]]/page.tsx": `import { StackHandler } from "@latchkey/react";
import { Suspense } from "react";

export default async function Handler({ params }: { params: Promise<{ path?: string[] }> }) {
  const { path = [] } = await params;
  return (
    <Suspense fallback={null}>
      <StackHandler pathname={"/handler/" + path.join("/")} />
    </Suspense>
  );
}
`,
  };
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(appDir, path)), { recursive: true });
    writeFileSync(join(appDir, path), text);
  }
}

/** Runs a command to completion; resolves with its stdout, or throws with its output's last lines. */
function run(cmd, args, { cwd, env = process.env }) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    children.add(child);
    let stdout = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    const output = collectOutput(child);
    child.on("error", reject);
    child.on("exit", (code, signal) => {
      children.delete(child);
      if (code === 0) resolve(stdout);
      else reject(new Error(`\`${[cmd, ...args].join(" ")}\` failed (${signal ?? `exit code ${code}`}):\n${output.tail()}`));
    });
  });
}

/** Keeps a child's combined output (the last 64 kB) to show when something fails. */
function collectOutput(child) {
  let text = "";
  const keep = (chunk) => {
    text = (text + chunk).slice(-65_536);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  return { tail: (lines = 40) => text.trimEnd().split("\n").slice(-lines).join("\n") };
}

/** A TCP port nobody listens on right now. */
function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.on("error", reject);
    probe.listen(0, () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/** Waits until `next start` answers on `url` (up to a minute). */
async function waitForHttp(url, child, log) {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`next start exited:\n${log.tail()}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((done) => setTimeout(done, 250));
  }
  throw new Error(`next start did not answer at ${url} within a minute:\n${log.tail()}`);
}

/** Stops what this script started and removes the temp dir. Runs once, however often it is called. */
function cleanup() {
  cleaningUp ??= (async () => {
    await browser?.close().catch(() => {});
    if (next) await stopProcess(next, "SIGTERM", { group: true });
    // SIGINT, as Ctrl-C would send: npm ignores SIGTERM in the middle of an install.
    await Promise.all([...children].map((child) => stopProcess(child, "SIGINT")));
    await server?.stop();
    // Last, once nothing writes into it any more.
    rmSync(tmp, { recursive: true, force: true, maxRetries: 3 });
  })();
  return cleaningUp;
}

/** Sends `signal` (to the child's process group with `group`), and SIGKILL if it has not exited within 5 s. */
async function stopProcess(child, signal, { group = false } = {}) {
  const running = () => child.exitCode === null && child.signalCode === null;
  if (!running()) return;
  const exited = new Promise((done) => child.once("exit", done));
  const send = (sig) => {
    try {
      if (group) process.kill(-child.pid, sig);
      else child.kill(sig);
    } catch {
      // Already gone.
    }
  };
  send(signal);
  await Promise.race([exited, new Promise((done) => setTimeout(done, 5000).unref())]);
  if (running()) {
    send("SIGKILL");
    await exited;
  }
}
