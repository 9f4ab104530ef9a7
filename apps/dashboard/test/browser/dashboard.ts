/**
 * What every dashboard browser test starts with: a real Latchkey server
 * serving the built dashboard (built once by build-once.ts), Debian's
 * Chromium, and an owner who can sign in.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { expect } from "vitest";
import { dashboardDist } from "../../../../scripts/lib/dashboard-build.mjs";
import { expectAccessible } from "./accessibility.ts";
import { ensureChromium } from "../../../../scripts/ensure-chromium.mjs";
import { logPageErrors, repoRoot } from "../../../../packages/react/test/browser/demo-app.ts";
import { PASSWORD, uniqueEmail } from "../../../../packages/js/test/server/support.ts";
import { createSdkProject, type SdkProject } from "../../../../packages/js/test/server/fixtures.ts";
import { createTestServer, freePort, type TestServer } from "../../../../packages/server/test/harness.ts";
import type { ServerConfig } from "../../../../packages/server/src/config.ts";
import { warmUpRenderer } from "../../../../packages/server/src/domain/emails/render/render.ts";

export { PASSWORD, uniqueEmail };

/** Screenshots of every page, kept as test artifacts. */
export const screenshots = join(repoRoot, "test-artifacts", "dashboard");

export interface Dashboard {
  server: TestServer;
  /** The server's base URL: the dashboard at /, the API at /api/v1. */
  url: string;
  browser: Browser;
  /** A page in a browser context of its own (own cookies), its errors logged and kept for `expectNoPageErrors`. */
  openPage(): Promise<Page>;
  /** Fails when a page opened through `openPage` threw an uncaught error since the last check (call it in `afterEach`). */
  expectNoPageErrors(): void;
  close(): Promise<void>;
}

/** `server`: a test server already made (e.g. one with a mail peer); else a new one. Its dashboardDir is set here. */
export async function startDashboard(options: { server?: TestServer; config?: Partial<ServerConfig> } = {}): Promise<Dashboard> {
  // The server knows its public URL (it names it to the dashboard for OAuth callbacks and set-up snippets) before it listens.
  const port = options.server ? 0 : await freePort();
  const server =
    options.server ?? (await createTestServer({ apiUrl: `http://127.0.0.1:${port}`, ...options.config, dashboardDir: dashboardDist }));
  if (!server.instance.services.dashboard)
    throw new Error("Pass dashboardDir: dashboardDist to the test server that serves the dashboard.");
  const url = await server.listen(port);
  // As `npm start` does: the e-mail renderer's first start takes seconds, better spent while the browser starts.
  warmUpRenderer(server.instance.services.logger);
  const browser = await chromium.launch({
    executablePath: ensureChromium(),
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
  });
  mkdirSync(screenshots, { recursive: true });
  const contexts: BrowserContext[] = [];
  const pageErrors = new Map<Page, string[]>();
  return {
    server,
    url,
    browser,
    async openPage() {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      contexts.push(context);
      const page = logPageErrors(await context.newPage());
      const errors: string[] = [];
      pageErrors.set(page, errors);
      page.on("pageerror", (error) => errors.push(error.stack ?? error.message));
      return page;
    },
    expectNoPageErrors() {
      const thrown = [...pageErrors.values()].flatMap((errors) => errors.splice(0));
      expect(thrown, "uncaught errors in the dashboard's pages").toEqual([]);
    },
    async close() {
      for (const context of contexts) await context.close();
      await browser.close();
      if (!options.server) await server.close();
    },
  };
}

/** Signs a new owner up through the dashboard's own sign-up page; they land on the first-run page. Returns their e-mail. */
export async function signUpOwner(page: Page, url: string): Promise<string> {
  const email = uniqueEmail("owner");
  await page.goto(`${url}/handler/sign-up`);
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  const repeat = page.getByLabel("Repeat password", { exact: true });
  if (await repeat.count()) await repeat.fill(PASSWORD);
  await page.getByRole("button", { name: "Sign up", exact: true }).click();
  await page.waitForURL((u) => u.pathname === "/new-project" || u.pathname.startsWith("/projects"));
  return email;
}

/** Keeps a picture of the page as a test artifact, and checks what it shows is accessible. */
export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(screenshots, `${name}.png`), fullPage: true });
  await expectAccessible(page, name);
}

/** Waits for the dashboard to show `heading` as the page's title. */
export async function expectHeading(page: Page, heading: string | RegExp): Promise<void> {
  await expect.poll(() => page.getByRole("heading", { level: 1, name: heading }).count(), { timeout: 15_000 }).toBeGreaterThan(0);
}

/** An owner (signed up through the SDK) with one project and its keys. */
export type ProjectOwner = SdkProject & { email: string };

/** An owner (signed up through the SDK) with one project and its keys: for tests that start past the first run. */
export async function ownerWithProject(url: string, config: Record<string, unknown> = {}): Promise<ProjectOwner> {
  const made = await createSdkProject(url, config);
  return { ...made, email: made.owner.primaryEmail! };
}

/**
 * A dashboard, an owner with one project (`config` is the project's), and a page signed in as that owner: what
 * the settings suites start from (in beforeAll). The dashboard is closed again when the rest cannot be made.
 */
export async function dashboardWithOwner(
  config: Record<string, unknown> = {},
): Promise<{ dashboard: Dashboard; owner: ProjectOwner; page: Page }> {
  const dashboard = await startDashboard();
  try {
    const owner = await ownerWithProject(dashboard.url, config);
    const page = await dashboard.openPage();
    await signInOwner(page, dashboard.url, owner.email);
    return { dashboard, owner, page };
  } catch (error) {
    await dashboard.close();
    throw error;
  }
}

/**
 * Flips the settings switch named `name` once it shows `from`, and waits for it to show the other value: a
 * settings switch moves only once the server has saved the change.
 */
export async function flipSetting(page: Page, name: string | RegExp, from: boolean): Promise<void> {
  const toggle = page.getByRole("switch", { name });
  await expect.poll(() => toggle.isChecked()).toBe(from);
  await toggle.click();
  await expect.poll(() => toggle.isChecked()).toBe(!from);
}

/** Signs an existing owner in through the dashboard's sign-in page; resolves once the dashboard shows a signed-in page. */
export async function signInOwner(page: Page, url: string, email: string): Promise<void> {
  await page.goto(`${url}/handler/sign-in`);
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await page.waitForURL((u) => !u.pathname.startsWith("/handler/"));
}

/**
 * The settings writes a page sends to the admin API (`PATCH /internal/config/override/environment`,
 * `PATCH /internal/projects/current`, …), as they happen: `take()` hands over those since the last call.
 */
export function recordAdminWrites(page: Page): { take(): string[] } {
  let writes: string[] = [];
  page.on("request", (request) => {
    const path = new URL(request.url()).pathname;
    if (request.method() !== "GET" && path.startsWith("/api/v1/internal/"))
      writes.push(`${request.method()} ${path.slice("/api/v1".length)}`);
  });
  return {
    take() {
      const taken = writes;
      writes = [];
      return taken;
    },
  };
}
