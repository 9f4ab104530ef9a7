/**
 * The overview, a project's first page: the counts, the two daily charts
 * (read through their accessible tables), countries, sign-in methods and
 * recent users, the anonymous toggle kept in the URL, light and dark, and
 * the empty state of a project nobody has signed up to.
 */
import type { Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { clientAppOf } from "../../../../packages/js/test/server/fixtures.ts";
import {
  expectHeading,
  ownerWithProject,
  PASSWORD,
  screenshot,
  signInOwner,
  startDashboard,
  uniqueEmail,
  type Dashboard,
} from "./dashboard.ts";

let dashboard: Dashboard;
let page: Page;
let owner: Awaited<ReturnType<typeof ownerWithProject>>;
let emptyProjectId: string;
/** Oldest first. */
const people: { id: string; name: string }[] = [];

beforeAll(async () => {
  dashboard = await startDashboard();
  owner = await ownerWithProject(dashboard.url);
  for (const [name, country] of [
    ["Ada Lovelace", "GB"],
    ["Grace Hopper", "US"],
    ["Linus Pauling", "US"],
  ] as const) {
    const app = clientAppOf(dashboard.url, owner);
    const result = await app.signUpWithCredential({ email: uniqueEmail("person"), password: PASSWORD, noRedirect: true });
    if (result.status !== "ok") throw result.error;
    const user = await app.getUser({ or: "throw" });
    await user.update({ displayName: name });
    // Where a user signed up from comes from their address; local test requests have none, so the owner sets it.
    await (await owner.project.app.getUser(user.id))!.update({ countryCode: country });
    people.push({ id: user.id, name });
  }
  await clientAppOf(dashboard.url, owner).getUser({ or: "anonymous" });
  emptyProjectId = (await owner.owner.createProject({ displayName: "Nobody yet" })).id;
  page = await dashboard.openPage();
  await signInOwner(page, dashboard.url, owner.email);
});

afterAll(async () => {
  await dashboard?.close();
});
afterEach(() => dashboard.expectNoPageErrors());

const today = () => new Date().toISOString().slice(0, 10);
const usersTile = () => page.locator(".stat-tile-primary dd").textContent();

/** The number a chart's accessible table gives for today. */
function todayIn(table: string) {
  return page.getByRole("table", { name: table }).locator(`tr:has(time[datetime="${today()}"]) td`).textContent();
}

describe("a project with users", () => {
  test("signing in opens a project on its overview, the first page in the sidebar", async () => {
    await expectHeading(page, "Overview");
    expect(new URL(page.url()).pathname).toMatch(/^\/projects\/[^/]+$/);
    await page.goto(`${dashboard.url}/projects/${owner.id}`);
    await expectHeading(page, "Overview");
    await expect.poll(() => page.getByRole("link", { name: "Overview" }).getAttribute("aria-current")).toBe("page");
  });

  test("counts the users, charts today's sign-ups and activity, and lists the newest users with links", async () => {
    await expect.poll(usersTile).toBe("3");
    // Drawn (hidden from screen readers), and told in words in the tables beside them.
    await expect.poll(() => page.locator(".overview-chart svg.recharts-surface").count()).toBe(2);
    expect(
      await page
        .getByRole("table", { name: /Sign-ups, per day/ })
        .locator("tbody tr")
        .count(),
    ).toBe(31);
    expect(await todayIn("Sign-ups, per day (UTC)")).toBe("3");
    expect(await todayIn("Daily active users, per day (UTC)")).toBe("3");

    const recent = page.getByRole("list", { name: "Recently signed up" }).getByRole("link");
    expect(await recent.allTextContents()).toEqual(people.map((p) => p.name).reverse());
    expect(await recent.first().getAttribute("href")).toBe(`/projects/${owner.id}/users/${people[2]!.id}`);

    const countries = page.getByRole("list", { name: "Users by country" }).getByRole("listitem");
    expect(await countries.allInnerTexts()).toEqual([
      expect.stringMatching(/United States\s+2/),
      expect.stringMatching(/United Kingdom\s+1/),
    ]);
    expect(await page.getByRole("list", { name: "Sign-in methods" }).innerText()).toMatch(/Password\s+3 \(100%\)/);
    await screenshot(page, "overview");
  });

  test("counts anonymous users when asked, and the choice survives a reload", async () => {
    const toggle = page.getByRole("switch", { name: "Include anonymous users" });
    // The switch follows the URL, which the router changes just after the click.
    await toggle.click();
    await expect.poll(() => toggle.isChecked()).toBe(true);
    await expect.poll(usersTile).toContain("4");
    expect(new URL(page.url()).searchParams.get("anonymous")).toBe("include");
    expect(await todayIn("Sign-ups, per day (UTC)")).toBe("4");
    await page.reload();
    await expect.poll(usersTile).toContain("4");
    expect(await toggle.isChecked()).toBe(true);
    await toggle.click();
    await expect.poll(usersTile).toBe("3");
    expect(new URL(page.url()).search).toBe("");
  });

  test("reads in dark mode", async () => {
    await page.getByLabel("Theme").selectOption("dark");
    await expect.poll(usersTile).toBe("3");
    await screenshot(page, "overview-dark");
    await page.getByLabel("Theme").selectOption("system");
  });
});

describe("the first page stays small", () => {
  test("the first page's scripts hold no charting library, and account settings load only when opened", async () => {
    const html = await (await fetch(`${dashboard.url}/`)).text();
    const scripts = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.js)"/g)].map(([, path]) => path!);
    expect(scripts.length).toBeGreaterThan(0);
    for (const path of scripts) expect(await (await fetch(`${dashboard.url}${path}`)).text()).not.toContain("recharts");

    const loaded = () => page.evaluate(() => performance.getEntriesByType("resource").map((e) => new URL(e.name).pathname));
    await page.goto(`${dashboard.url}/projects/${emptyProjectId}`);
    await expect.poll(() => page.getByRole("heading", { name: "No users yet" }).count()).toBe(1);
    expect((await loaded()).filter((path) => path.includes("/account-settings-"))).toEqual([]);
    await page.getByRole("button", { name: "Account menu" }).click();
    await page.getByRole("menuitem", { name: "Account settings" }).click();
    await expectHeading(page, "Account settings");
    expect((await loaded()).some((path) => path.includes("/account-settings-"))).toBe(true);
  });
});

describe("a project nobody has signed up to", () => {
  test("says so and points to setting up the app and to the users page", async () => {
    await page.goto(`${dashboard.url}/projects/${emptyProjectId}`);
    await expect.poll(() => page.getByRole("heading", { name: "No users yet" }).count()).toBe(1);
    expect(await page.getByRole("link", { name: "Add Latchkey to your app" }).getAttribute("href")).toBe(
      `/projects/${emptyProjectId}/setup`,
    );
    expect(await page.getByRole("link", { name: "Create a user" }).getAttribute("href")).toBe(`/projects/${emptyProjectId}/users`);
    await screenshot(page, "overview-empty");
  });
});
