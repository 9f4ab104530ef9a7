/**
 * User and team API keys in the dashboard: the two switches on the auth
 * methods page (written as the `apiKeys.enabled.user|team` config keys), and
 * a user's and a team's keys on their detail pages, listed with their last
 * four characters, dates and status, and revoked after a confirmation; the
 * revoked key then finds no one through the server SDK.
 */
import type { ServerTeam, ServerUser } from "@latchkey/js";
import type { Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { dashboardWithOwner, expectHeading, flipSetting, screenshot, uniqueEmail, type Dashboard, type ProjectOwner } from "./dashboard.ts";

const DAY = 24 * 60 * 60 * 1000;

let dashboard: Dashboard;
let owner: ProjectOwner;
let page: Page;
let user: ServerUser;
let team: ServerTeam;

const projectUrl = (path: string) => `${dashboard.url}/projects/${owner.id}/${path}`;
const card = () => page.getByRole("region", { name: "API keys", exact: true });
const row = (description: string) => card().getByRole("row").filter({ hasText: description });

/** Revokes a listed key through its confirmation dialog; its row stays, marked, without a Revoke button. */
async function revokeConfirmed(description: string): Promise<void> {
  await row(description)
    .getByRole("button", { name: `Revoke the key ${description}` })
    .click();
  await page.getByRole("dialog", { name: "Revoke this API key?" }).getByRole("button", { name: "Revoke key" }).click();
  await row(description).getByText("Revoked", { exact: true }).waitFor();
  expect(
    await row(description)
      .getByRole("button", { name: /Revoke/ })
      .count(),
  ).toBe(0);
}

beforeAll(async () => {
  ({ dashboard, owner, page } = await dashboardWithOwner());
  const app = owner.project.app;
  user = await app.createUser({ primaryEmail: uniqueEmail("keys"), displayName: "Ada Lovelace" });
  team = await app.createTeam({ displayName: "Analytical Engines" });
});
afterAll(() => dashboard?.close());
afterEach(() => dashboard.expectNoPageErrors());

describe("API keys in the dashboard", () => {
  test("while the project allows no keys, the user's page says so and where to turn them on", async () => {
    await page.goto(projectUrl(`users/${user.id}`));
    await expectHeading(page, "Ada Lovelace");
    await card().getByText("User API keys are turned off for this project").waitFor();
    await card().getByRole("link", { name: "Auth methods" }).click();
    await expectHeading(page, "Auth methods");
  });

  test("the auth methods page turns user and team keys on, as config keys", async () => {
    await flipSetting(page, /^User API keys/, false);
    await flipSetting(page, /^Team API keys/, false);
    expect(await owner.project.getConfigOverride("environment")).toMatchObject({
      "apiKeys.enabled.user": true,
      "apiKeys.enabled.team": true,
    });
    const { config } = await owner.project.app.getProject();
    expect(config).toMatchObject({ allowUserApiKeys: true, allowTeamApiKeys: true });
    await screenshot(page, "auth-methods-api-keys");
  });

  test("a user's keys are listed with last four, dates and status; one is revoked after confirming", async () => {
    const cli = await user.createApiKey({ description: "CLI", expiresAt: new Date(Date.now() + 30 * DAY) });
    await user.createApiKey({ description: "Old script", expiresAt: new Date(Date.now() - DAY) });
    await user.createApiKey({ description: "Forever", expiresAt: null });
    const app = owner.project.app;
    expect((await app.getUser({ apiKey: cli.value }))?.id).toBe(user.id);

    await page.goto(projectUrl(`users/${user.id}`));
    await expectHeading(page, "Ada Lovelace");
    await row("CLI")
      .getByText(`…${cli.value.slice(-4)}`)
      .waitFor();
    await row("CLI").getByText("Valid", { exact: true }).waitFor();
    await row("Old script").getByText("Expired", { exact: true }).waitFor();
    expect(await row("Forever").getByRole("cell", { name: "Never", exact: true }).count()).toBe(2);
    // The whole key is nowhere on the page.
    expect(await page.getByText(cli.value).count()).toBe(0);

    await row("CLI").getByRole("button", { name: "Revoke the key CLI" }).click();
    const dialog = page.getByRole("dialog", { name: "Revoke this API key?" });
    await dialog.getByText(cli.value.slice(-4)).waitFor();
    await dialog.getByRole("button", { name: "Cancel" }).click();
    expect((await app.getUser({ apiKey: cli.value }))?.id).toBe(user.id);

    await revokeConfirmed("CLI");
    expect(await app.getUser({ apiKey: cli.value })).toBeNull();
    await screenshot(page, "user-detail-api-keys");
  });

  test("a team's keys likewise, on the team's page", async () => {
    const build = await team.createApiKey({ description: "Build server", expiresAt: null });
    const app = owner.project.app;
    expect((await app.getTeam({ apiKey: build.value }))?.id).toBe(team.id);

    await page.goto(projectUrl(`teams/${team.id}`));
    await expectHeading(page, "Analytical Engines");
    await row("Build server")
      .getByText(`…${build.value.slice(-4)}`)
      .waitFor();
    await revokeConfirmed("Build server");
    expect(await app.getTeam({ apiKey: build.value })).toBeNull();
    await screenshot(page, "team-detail-api-keys");
  });

  test("with team keys turned off again, the team's page lists none and says why", async () => {
    await owner.project.updateConfig({ "apiKeys.enabled.team": false });
    await page.goto(projectUrl(`teams/${team.id}`));
    await expectHeading(page, "Analytical Engines");
    await card().getByText("Team API keys are turned off for this project").waitFor();
    expect(await card().getByRole("table").count()).toBe(0);
  });
});
