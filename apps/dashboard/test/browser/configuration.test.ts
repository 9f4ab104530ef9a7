/**
 * The Configuration page: the resolved config and each level's override as
 * the server holds them (keys set through the SDK show up, secrets only
 * masked), a Copy button per document that puts exactly that JSON on the
 * clipboard, and a change made on another settings page showing up here.
 */
import type { Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, expect, test } from "vitest";
import { dashboardWithOwner, expectHeading, flipSetting, screenshot, type Dashboard, type ProjectOwner } from "./dashboard.ts";

let dashboard: Dashboard;
let page: Page;
let owner: ProjectOwner;
const secret = "gh-secret-never-shown-5678";

beforeAll(async () => {
  ({ dashboard, owner, page } = await dashboardWithOwner());
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: dashboard.url });
});
afterAll(() => dashboard?.close());
afterEach(() => dashboard.expectNoPageErrors());

/** The JSON a document's block shows, parsed. */
async function shown(name: string): Promise<unknown> {
  return JSON.parse((await page.getByRole("region", { name: `The ${name} as JSON` }).textContent()) ?? "");
}

test("shows each level's keys as set through the API, the resolved config, and secrets only masked", async () => {
  const { project } = owner;
  await project.replaceConfigOverride("project", { "project.requirePublishableClientKey": false });
  await project.pushConfig({ "auth.passkey.allowSignIn": true }, { source: { type: "pushed-from-unknown" } });
  await project.updateConfig({
    "teams.allowClientTeamCreation": true,
    "auth.oauth.providers.github": { type: "github", isShared: false, clientId: "gh-id", clientSecret: secret, allowSignIn: true },
  });

  await page.goto(`${dashboard.url}/projects/${owner.id}`);
  await page.getByRole("navigation", { name: "Project" }).getByRole("link", { name: "Configuration" }).click();
  await expectHeading(page, "Configuration");
  await expect.poll(() => page.getByRole("region", { name: "The environment override as JSON" }).count()).toBe(1);

  expect(await shown("project override")).toEqual({ "project.requirePublishableClientKey": false });
  expect(await shown("branch override")).toEqual({ "auth.passkey.allowSignIn": true });
  const environment = (await shown("environment override")) as Record<string, unknown>;
  expect(environment).toEqual(await project.getConfigOverride("environment"));
  expect(environment["teams.allowClientTeamCreation"]).toBe(true);
  const resolved = (await shown("resolved config")) as Awaited<ReturnType<typeof project.getConfig>>;
  expect(resolved.auth.passkey.allowSignIn).toBe(true);
  expect(resolved.teams.allowClientTeamCreation).toBe(true);
  expect(resolved.auth.oauth.providers.github?.clientSecret).toBe("********5678");
  expect(await page.content()).not.toContain(secret);
  await screenshot(page, "configuration");
});

test("each Copy button copies its document's JSON and says so", async () => {
  await page.goto(`${dashboard.url}/projects/${owner.id}/configuration`);
  await expectHeading(page, "Configuration");
  const copy = page.getByRole("button", { name: "Copy the environment override" });
  await expect.poll(() => copy.count()).toBe(1);
  expect(await copy.textContent()).toBe("Copy");
  await copy.click();
  await expect.poll(() => copy.textContent()).toBe("Copied");
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(JSON.parse(copied)).toEqual(await owner.project.getConfigOverride("environment"));
  // Only the button pressed says so.
  expect(await page.getByRole("button", { name: "Copy the resolved config" }).textContent()).toBe("Copy");
  await page.getByRole("button", { name: "Copy the resolved config" }).click();
  expect(JSON.parse(await page.evaluate(() => navigator.clipboard.readText()))).toEqual(await owner.project.getConfig());
});

test("a setting changed on its own page shows here as the environment key it wrote", async () => {
  await page.goto(`${dashboard.url}/projects/${owner.id}/auth-methods`);
  await expectHeading(page, "Auth methods");
  await flipSetting(page, /^Magic link/, false);
  await page.getByRole("navigation", { name: "Project" }).getByRole("link", { name: "Configuration" }).click();
  await expectHeading(page, "Configuration");
  await expect
    .poll(async () => ((await shown("environment override").catch(() => ({}))) as Record<string, unknown>)["auth.otp.allowSignIn"])
    .toBe(true);
});
