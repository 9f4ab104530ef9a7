/**
 * The dashboard's frame, as a new owner meets it: served at / by the
 * server, the owner's sign-up, deep links that survive a reload, the
 * sidebar, the project keys page (create shown once, list with last four,
 * revoke), dark mode, and the server's answers for files and API paths.
 */
import type { Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import {
  PASSWORD,
  expectHeading,
  ownerWithProject,
  uniqueEmail,
  screenshot,
  signInOwner,
  signUpOwner,
  startDashboard,
  type Dashboard,
} from "./dashboard.ts";

let dashboard: Dashboard;
let page: Page;

beforeAll(async () => {
  dashboard = await startDashboard();
  page = await dashboard.openPage();
});

afterAll(async () => {
  await dashboard?.close();
});
afterEach(() => dashboard.expectNoPageErrors());

describe("served by the server", () => {
  test("every page URL answers the app; hashed assets are cached for good; the API and missing files are not the app", async () => {
    const home = await fetch(`${dashboard.url}/projects/abc/users?x=1`);
    expect(home.status).toBe(200);
    expect(home.headers.get("content-type")).toContain("text/html");
    expect(home.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    const html = await home.text();
    expect(html).toContain('<meta name="latchkey-publishable-client-key"');
    const asset = html.match(/\/assets\/[^"]+\.js/)![0];
    const js = await fetch(`${dashboard.url}${asset}`);
    expect(js.status).toBe(200);
    expect(js.headers.get("cache-control")).toContain("immutable");
    expect((await fetch(`${dashboard.url}/assets/gone-123.js`)).status).toBe(404);
    expect((await fetch(`${dashboard.url}/api/v1/nothing-here`)).status).toBe(404);
    expect((await fetch(`${dashboard.url}/..%2f..%2fpackage.json`)).status).toBe(404);
  });
});

describe("a new owner", () => {
  test("signing out of nowhere: the dashboard sends a visitor to sign in", async () => {
    await page.goto(`${dashboard.url}/projects`);
    await page.waitForURL((u) => u.pathname === "/handler/sign-in");
    await expect.poll(() => page.getByRole("heading", { name: "Sign in" }).count()).toBe(1);
  });

  test("signs up, sees the projects page, and a reload keeps the page", async () => {
    await signUpOwner(page, dashboard.url);
    await page.goto(`${dashboard.url}/projects`);
    await expectHeading(page, "Projects");
    await expect.poll(() => page.getByText("You have no projects yet.").count()).toBe(1);
    await page.reload();
    await expectHeading(page, "Projects");
  });

  test("from the sign-in page the dashboard sent them to, the Sign up link leads on to their first project", async () => {
    const visitor = await dashboard.openPage();
    await visitor.goto(`${dashboard.url}/`);
    await visitor.waitForURL((u) => u.pathname === "/handler/sign-in");
    await visitor.getByRole("link", { name: "Sign up" }).click();
    await visitor.waitForURL((u) => u.pathname === "/handler/sign-up");
    await visitor.getByLabel("Email", { exact: true }).fill(uniqueEmail("visitor"));
    await visitor.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await visitor.getByLabel("Repeat password", { exact: true }).fill(PASSWORD);
    await visitor.getByRole("button", { name: "Sign up", exact: true }).click();
    // Signed in now: not sent back to sign in by what the signed-out visitor was shown.
    await visitor.waitForURL((u) => u.pathname === "/new-project");
  });

  test("an unknown address says so", async () => {
    await page.goto(`${dashboard.url}/no/such/page`);
    await expectHeading(page, "Page not found");
  });
});

describe("an owner with a project", () => {
  let owner: Awaited<ReturnType<typeof ownerWithProject>>;
  let ownerPage: Page;

  beforeAll(async () => {
    owner = await ownerWithProject(dashboard.url);
    ownerPage = await dashboard.openPage();
    await signInOwner(ownerPage, dashboard.url, owner.email);
  });

  test("a deep link to the project's keys page opens it, and the sidebar marks it", async () => {
    await ownerPage.goto(`${dashboard.url}/projects/${owner.id}/keys`);
    await expectHeading(ownerPage, "Project keys");
    await expect.poll(() => ownerPage.getByRole("link", { name: "Project keys" }).getAttribute("aria-current")).toBe("page");
    // The set the fixture made: its last four characters, never the whole key.
    await expect.poll(() => ownerPage.getByText(`client …${owner.publishableClientKey.slice(-4)}`).count()).toBe(1);
    expect(await ownerPage.getByText(owner.publishableClientKey).count()).toBe(0);
  });

  test("new keys are shown once, after which only their last four remain; revoking them ends them", async () => {
    await ownerPage.getByRole("button", { name: "New keys" }).click();
    const dialog = ownerPage.getByRole("dialog", { name: "New keys" });
    await dialog.getByLabel("Description").fill("Staging server");
    await dialog.getByRole("button", { name: "Create keys" }).click();
    const shown = ownerPage.getByRole("dialog", { name: "Your new keys" });
    const secret = await shown.getByLabel("Secret server key").inputValue();
    expect(secret).toMatch(/^ssk_/);
    await screenshot(ownerPage, "keys-shown-once");
    // Escape (even twice: the browser closes a dialog on a second one) does not throw the keys away.
    await ownerPage.keyboard.press("Escape");
    await ownerPage.keyboard.press("Escape");
    await ownerPage.evaluate(() => new Promise((done) => requestAnimationFrame(done)));
    expect(await shown.isVisible()).toBe(true);
    expect(await shown.getByLabel("Secret server key").inputValue()).toBe(secret);
    // Done stays off until the owner says the keys are copied.
    expect(await shown.getByRole("button", { name: "Done" }).isDisabled()).toBe(true);
    await shown.getByLabel("I have copied the keys somewhere safe").check();
    await shown.getByRole("button", { name: "Done" }).click();

    const row = ownerPage.getByRole("row", { name: /Staging server/ });
    await expect.poll(() => row.getByText(`server …${secret.slice(-4)}`).count()).toBe(1);
    const works = () =>
      fetch(`${dashboard.url}/api/v1/users`, {
        headers: { "x-stack-access-type": "server", "x-stack-project-id": owner.id, "x-stack-secret-server-key": secret },
      }).then((r) => r.status);
    expect(await works()).toBe(200);

    await row.getByRole("button", { name: "Revoke" }).click();
    await ownerPage.getByRole("dialog", { name: "Revoke these keys?" }).getByRole("button", { name: "Revoke keys" }).click();
    await expect.poll(() => row.getByText("Revoked").count()).toBe(1);
    expect(await works()).toBe(401);
    await screenshot(ownerPage, "keys");
  });

  test("dark mode is one choice away and stays after a reload", async () => {
    await ownerPage.getByLabel("Theme").selectOption("dark");
    expect(await ownerPage.evaluate(() => document.documentElement.dataset.theme)).toBe("dark");
    await ownerPage.reload();
    await expectHeading(ownerPage, "Project keys");
    expect(await ownerPage.evaluate(() => document.documentElement.dataset.theme)).toBe("dark");
    await screenshot(ownerPage, "keys-dark");
    await ownerPage.getByLabel("Theme").selectOption("system");
  });

  test("the keyboard: the first stop skips to the page, which then holds focus", async () => {
    await ownerPage.goto(`${dashboard.url}/projects/${owner.id}/keys`);
    await expectHeading(ownerPage, "Project keys");
    // The skip link comes before everything else Tab can reach, and shows when focused.
    expect(await ownerPage.evaluate(() => document.querySelector("a[href], button, input, select, textarea")?.textContent)).toBe(
      "Skip to content",
    );
    const skip = ownerPage.getByRole("link", { name: "Skip to content" });
    await skip.focus();
    expect((await skip.boundingBox())!.y).toBeGreaterThanOrEqual(0);
    await ownerPage.keyboard.press("Enter");
    expect(await ownerPage.evaluate(() => document.activeElement?.id)).toBe("main");
    // A move from the sidebar puts focus on the new page's title, so it is announced.
    await ownerPage.getByRole("link", { name: "Project settings" }).click();
    await expectHeading(ownerPage, "Project settings");
    await expect.poll(() => ownerPage.evaluate(() => document.activeElement?.tagName)).toBe("H1");
  });
});
