/**
 * The data vault's stores on the Configuration page: listed by id and name
 * (a store added through the API shows up), added through the config
 * override API with the environment's document read again, refused with a
 * reason for an id the config cannot hold or one already there; the values
 * stored through the server SDK are never shown.
 */
import type { Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, expect, test } from "vitest";
import { StackServerApp } from "../../../../packages/js/src/index.ts";
import { dashboardWithOwner, expectHeading, recordAdminWrites, screenshot, type Dashboard, type ProjectOwner } from "./dashboard.ts";

let dashboard: Dashboard;
let page: Page;
let owner: ProjectOwner;

beforeAll(async () => ({ dashboard, owner, page } = await dashboardWithOwner()));
afterAll(() => dashboard?.close());
afterEach(() => dashboard.expectNoPageErrors());

const card = () => page.getByRole("region", { name: "Data vault stores" });
const rows = () => card().getByRole("table", { name: "Data vault stores" }).locator("tbody tr");

async function openConfiguration() {
  await page.goto(`${dashboard.url}/projects/${owner.id}/configuration`);
  await expectHeading(page, "Configuration");
  await expect.poll(() => card().count()).toBe(1);
}

async function addStore(id: string, displayName: string) {
  await card().getByRole("button", { name: "Add store" }).click();
  const dialog = page.getByRole("dialog", { name: "Add a data vault store" });
  await dialog.getByLabel("Store id").fill(id);
  await dialog.getByLabel("Display name").fill(displayName);
  await dialog.getByRole("button", { name: "Add store" }).click();
  return dialog;
}

test("lists none at first, adds a store through the environment override, and shows it with the override read again", async () => {
  await openConfiguration();
  expect(await card().textContent()).toContain("No stores yet");
  const writes = recordAdminWrites(page);
  const dialog = await addStore("oauth-tokens", "OAuth tokens");
  await expect.poll(() => dialog.isVisible()).toBe(false);
  await expect.poll(() => rows().count()).toBe(1);
  expect(await rows().first().textContent()).toBe("oauth-tokensOAuth tokens");
  expect(writes.take()).toEqual(["PATCH /internal/config/override/environment"]);
  expect((await owner.project.getConfig()).dataVault.stores).toEqual({ "oauth-tokens": { displayName: "OAuth tokens" } });
  await expect
    .poll(async () => page.getByRole("region", { name: "The environment override as JSON" }).textContent())
    .toContain('"dataVault.stores.oauth-tokens"');
  await screenshot(page, "data-vault-stores");
});

test("refuses an id the config cannot hold, and one already there, saying why and writing nothing", async () => {
  await openConfiguration();
  const writes = recordAdminWrites(page);
  let dialog = await addStore("bad id.with dots", "");
  await expect.poll(() => dialog.getByRole("alert").textContent()).toBe("A store id may only hold letters, digits and _ $ : -.");
  await dialog.getByRole("button", { name: "Cancel" }).click();
  dialog = await addStore("oauth-tokens", "Again");
  await expect.poll(() => dialog.getByRole("alert").textContent()).toBe('There is already a store "oauth-tokens".');
  await dialog.getByRole("button", { name: "Cancel" }).click();
  expect(writes.take()).toEqual([]);
  expect(Object.keys((await owner.project.getConfig()).dataVault.stores)).toEqual(["oauth-tokens"]);
});

test("shows a store added through the API, unnamed ones as the default name, and never a stored value", async () => {
  await owner.project.updateConfig({ "dataVault.stores.api-made": {} });
  const server = new StackServerApp({
    baseUrl: dashboard.url,
    projectId: owner.id,
    publishableClientKey: owner.publishableClientKey,
    secretServerKey: owner.secretServerKey,
  });
  const value = "vault-value-never-on-the-page";
  const store = await server.getDataVaultStore("api-made");
  await store.setValue("customer-1", value, { secret: "the app's secret" });
  expect(await store.getValue("customer-1", { secret: "the app's secret" })).toBe(value);

  await openConfiguration();
  await expect.poll(() => rows().count()).toBe(2);
  expect(await rows().allTextContents()).toEqual(["api-madeUnnamed Vault", "oauth-tokensOAuth tokens"]);
  const html = await page.content();
  expect(html).not.toContain(value);
  expect(html).not.toContain("customer-1");
});
