/**
 * The demo app (apps/demo), built once and served against a Latchkey server, and
 * Debian's Chromium to drive it: what every browser test starts with.
 */
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { ensureChromium } from "../../../../scripts/ensure-chromium.mjs";
import { PASSWORD } from "../../../js/test/server/support.ts";
import { serveDemo, type DemoEnv } from "./demo-build.ts";

export { repoRoot } from "./demo-build.ts";

export interface DemoApp {
  /** Where the demo app is served. */
  url: string;
  browser: Browser;
  /** A page in a browser context of its own (its own cookies and storage), its errors logged; closed with the demo app. */
  openPage(viewport?: { width: number; height: number }): Promise<Page>;
  close(): Promise<void>;
}

/** Sends a page's uncaught errors and console errors to the test output, where a failing test's cause then shows. */
export function logPageErrors(page: Page): Page {
  page.on("pageerror", (error) => console.error(`[browser] ${error.stack ?? error.message}`));
  page.on("console", (message) => {
    if (message.type() === "error") console.error(`[browser console] ${message.text()}`);
  });
  return page;
}

/** `env`: the VITE_* variables the app reads (its API URL, project id, keys…). */
export async function startDemoApp(env: DemoEnv): Promise<DemoApp> {
  const executablePath = ensureChromium();
  const demo = await serveDemo(env);
  const browser = await chromium.launch({
    executablePath,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
  });
  const contexts: BrowserContext[] = [];
  return {
    url: demo.url,
    browser,
    async openPage(viewport = { width: 1100, height: 900 }) {
      const context = await browser.newContext({ viewport });
      contexts.push(context);
      return logPageErrors(await context.newPage());
    },
    async close() {
      for (const context of contexts) await context.close();
      await browser.close();
      await demo.close();
    },
  };
}

/** Signs `email` up on the demo app's sign-up page (password `PASSWORD`); resolves once the app is back on its home page. */
export async function signUpInDemo(page: Page, demo: Pick<DemoApp, "url">, email: string): Promise<void> {
  await page.goto(`${demo.url}/handler/sign-up`);
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByLabel("Repeat password", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Sign up", exact: true }).click();
  await page.waitForURL(`${demo.url}/`);
}
