/**
 * @latchkey/react in a real browser: the demo app (apps/demo) served by
 * Vite, against a real Latchkey server, driven in Chromium by playwright-core.
 * No mocks. The tests are one user's story and run in order, sharing the
 * browser's cookies: sign up, edit the profile, sign out, sign in again.
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { createServer, type ViteDevServer } from "vite";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createSdkProject } from "../../../js/test/server/fixtures.ts";
import { PASSWORD, uniqueEmail } from "../../../js/test/server/support.ts";
import { createTestServer, type TestServer } from "../../../server/test/harness.ts";
import { ensureChromium } from "../../../../scripts/ensure-chromium.mjs";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../../../..");
const demoRoot = join(repoRoot, "apps", "demo");
const artifacts = join(repoRoot, "test-artifacts");

let server: TestServer;
let vite: ViteDevServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let demoUrl: string;
// Vite's own dependency cache, so a `npm run demo` running alongside is left alone.
const viteCacheDir = mkdtempSync(join(tmpdir(), "latchkey-demo-vite-"));

const email = uniqueEmail("browser");

beforeAll(async () => {
  const executablePath = ensureChromium();

  server = await createTestServer();
  const apiUrl = await server.listen();
  const project = await createSdkProject(apiUrl);

  // Vite hands the VITE_* variables of its own process to the app (import.meta.env).
  process.env.VITE_LATCHKEY_API_URL = apiUrl;
  process.env.VITE_LATCHKEY_PROJECT_ID = project.id;
  process.env.VITE_LATCHKEY_PUBLISHABLE_CLIENT_KEY = project.publishableClientKey;
  vite = await createServer({
    root: demoRoot,
    configFile: join(demoRoot, "vite.config.ts"),
    server: { port: 0, host: "127.0.0.1", strictPort: false },
    cacheDir: viteCacheDir,
    logLevel: "warn",
    clearScreen: false,
  });
  await vite.listen();
  const address = vite.httpServer?.address();
  if (!address || typeof address === "string") throw new Error("Vite is not listening on a TCP port.");
  demoUrl = `http://127.0.0.1:${address.port}`;

  browser = await chromium.launch({
    executablePath,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
  });
  context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
  page = await context.newPage();
  page.on("pageerror", (error) => console.error(`[browser] ${error.stack ?? error.message}`));
  page.on("console", (message) => {
    if (message.type() === "error") console.error(`[browser console] ${message.text()}`);
  });
  mkdirSync(artifacts, { recursive: true });

  // The first visit makes Vite pre-bundle the app's dependencies; later visits are fast.
  await page.goto(`${demoUrl}/`);
  await page.getByRole("link", { name: "Sign in" }).waitFor();
});

afterAll(async () => {
  await browser?.close();
  await vite?.close();
  await server?.close();
  rmSync(viteCacheDir, { recursive: true, force: true });
});

/** Goes to `path` on the demo. */
async function visit(path: string): Promise<void> {
  await page.goto(`${demoUrl}${path}`);
}

async function waitForPath(path: string): Promise<void> {
  await page.waitForURL((url) => `${url.pathname}${url.search}` === path);
}

async function fillSignIn(password: string): Promise<void> {
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
}

async function openAccountMenu(): Promise<void> {
  await page.getByRole("button", { name: "Account menu" }).click();
  await page.getByRole("menu").waitFor();
}

describe("the demo app with @latchkey/react", () => {
  test("signs up on /handler/sign-up and lands on the home page, signed in", async () => {
    await visit("/handler/sign-up");
    await page.getByLabel("Email", { exact: true }).fill(email);
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page.getByLabel("Repeat password", { exact: true }).fill(PASSWORD);
    await page.getByRole("button", { name: "Sign up", exact: true }).click();

    await waitForPath("/");
    await page.getByText(`Signed in as ${email}`).waitFor();
  });

  test("the user button opens a menu; account settings change the display name, which survives a reload", async () => {
    await visit("/");
    await openAccountMenu();
    expect(await page.getByRole("menuitem").allInnerTexts()).toEqual(
      expect.arrayContaining([expect.stringContaining("Account settings"), expect.stringContaining("Sign out")]),
    );
    await page.getByRole("menuitem", { name: "Account settings" }).click();
    await waitForPath("/handler/account-settings");

    const profile = page.locator("section").filter({ has: page.getByRole("heading", { name: "Profile" }) });
    const displayName = profile.getByLabel("Display name", { exact: true });
    await displayName.fill("Ada Lovelace");
    await profile.getByRole("button", { name: "Save", exact: true }).click();
    await profile.getByText("Saved.").waitFor();

    await page.reload();
    await expect.poll(() => page.getByLabel("Display name", { exact: true }).inputValue()).toBe("Ada Lovelace");
    await page.getByRole("heading", { name: "Active sessions" }).waitFor();
    await page.screenshot({ path: join(artifacts, "account-settings.png"), fullPage: true });
  });

  test("signs out through the user button's menu", async () => {
    await visit("/");
    await openAccountMenu();
    await page.getByRole("menuitem", { name: "Sign out" }).click();

    await waitForPath("/");
    await page.getByRole("link", { name: "Sign in" }).waitFor();
    expect(await page.getByText(`Signed in as ${email}`).count()).toBe(0);
  });

  test("signs in on /handler/sign-in; a wrong password is refused with an alert", async () => {
    await visit("/handler/sign-in");
    await page.getByRole("button", { name: "Sign in", exact: true }).waitFor();
    await page.screenshot({ path: join(artifacts, "sign-in.png"), fullPage: true });

    await fillSignIn("not the password 123");
    const alert = page.getByRole("alert").filter({ hasText: "Wrong e-mail or password." });
    await alert.waitFor();
    expect((await alert.innerText()).trim()).toBe("Wrong e-mail or password.");
    expect(new URL(page.url()).pathname).toBe("/handler/sign-in");

    await fillSignIn(PASSWORD);
    await waitForPath("/");
    await page.getByText(`Signed in as ${email}`).waitFor();
  });

  test("/protected sends signed-out visitors to sign in, then back to /protected", async () => {
    await openAccountMenu();
    await page.getByRole("menuitem", { name: "Sign out" }).click();
    await page.getByRole("link", { name: "Sign in" }).waitFor();

    await visit("/protected");
    await waitForPath("/handler/sign-in?after_auth_return_to=%2Fprotected");
    await fillSignIn(PASSWORD);

    await waitForPath("/protected");
    await page.getByText(`Protected page for ${email}`).waitFor();
  });
});
