/**
 * The Products and items page: items, product lines and products listed
 * from the config and added, edited and deleted through the environment's
 * override, one key per entry; a product's prices, trial and included
 * items written as the catalogue's config holds them; ids the config cannot
 * hold refused before anything is written.
 */
import type { Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, expect, test } from "vitest";
import { dashboardWithOwner, expectHeading, recordAdminWrites, screenshot, type Dashboard, type ProjectOwner } from "./dashboard.ts";

let dashboard: Dashboard;
let page: Page;
let owner: ProjectOwner;

beforeAll(async () => ({ dashboard, owner, page } = await dashboardWithOwner()));
afterAll(() => dashboard?.close());
afterEach(() => dashboard.expectNoPageErrors());

const card = (name: string) => page.getByRole("region", { name });
const rows = (name: string) => card(name).getByRole("table", { name }).locator("tbody tr");
const payments = async () => (await owner.project.getConfig()).payments;

async function openCatalogue() {
  await page.goto(`${dashboard.url}/projects/${owner.id}/payments`);
  await expectHeading(page, "Products and items");
  await expect.poll(() => card("Products").count()).toBe(1);
}

async function addItem(id: string, displayName: string, customerType = "user") {
  await card("Items").getByRole("button", { name: "Add item" }).click();
  const dialog = page.getByRole("dialog", { name: "Add an item" });
  await dialog.getByLabel("Item id").fill(id);
  await dialog.getByLabel("Display name").fill(displayName);
  await dialog.getByLabel("Customer type").selectOption(customerType);
  await dialog.getByRole("button", { name: "Add item" }).click();
  return dialog;
}

test("adds, edits and deletes items, one config key each, and refuses an id the config cannot hold", async () => {
  await openCatalogue();
  expect(await card("Items").textContent()).toContain("No items yet");
  const writes = recordAdminWrites(page);
  const dialog = await addItem("credits", "Credits");
  await expect.poll(() => dialog.isVisible()).toBe(false);
  await expect.poll(() => rows("Items").count()).toBe(1);
  expect(await rows("Items").first().textContent()).toContain("creditsCreditsuser");
  expect(writes.take()).toEqual(["PATCH /internal/config/override/environment"]);
  expect((await payments()).items).toEqual({ credits: { displayName: "Credits", customerType: "user" } });

  await card("Items").getByRole("button", { name: "Edit item credits" }).click();
  const edit = page.getByRole("dialog", { name: "Edit item credits" });
  expect(await edit.getByLabel("Item id").isDisabled()).toBe(true);
  await edit.getByLabel("Display name").fill("API credits");
  await edit.getByRole("button", { name: "Save item" }).click();
  await expect.poll(async () => (await payments()).items.credits?.displayName).toBe("API credits");

  const refused = await addItem("-bad id", "");
  await expect
    .poll(() => refused.getByRole("alert").textContent())
    .toBe("An item id is 1 to 63 letters, digits, _ and -, not starting with -.");
  await refused.getByRole("button", { name: "Cancel" }).click();
  const twice = await addItem("credits", "Again");
  await expect.poll(() => twice.getByRole("alert").textContent()).toBe('There is already an item "credits".');
  await twice.getByRole("button", { name: "Cancel" }).click();
  expect(writes.take()).toEqual(["PATCH /internal/config/override/environment"]);

  await addItem("scratch", "Scratch");
  await expect.poll(() => rows("Items").count()).toBe(2);
  await card("Items").getByRole("button", { name: "Delete item scratch" }).click();
  await page.getByRole("dialog", { name: "Delete item scratch?" }).getByRole("button", { name: "Delete item" }).click();
  await expect.poll(() => rows("Items").count()).toBe(1);
  expect(Object.keys((await payments()).items)).toEqual(["credits"]);
});

test("adds a product with a monthly price in two currencies, a trial and a monthly credit grant, and edits it", async () => {
  await openCatalogue();
  await card("Product lines").getByRole("button", { name: "Add product line" }).click();
  const lineDialog = page.getByRole("dialog", { name: "Add a product line" });
  await lineDialog.getByLabel("Product line id").fill("plans");
  await lineDialog.getByLabel("Display name").fill("Plans");
  await lineDialog.getByRole("button", { name: "Add product line" }).click();
  await expect.poll(() => rows("Product lines").count()).toBe(1);

  await card("Products").getByRole("button", { name: "Add product" }).click();
  const dialog = page.getByRole("dialog", { name: "Add a product" });
  await dialog.getByLabel("Product id").fill("pro");
  await dialog.getByLabel("Display name").fill("Pro");
  await dialog.getByLabel("Product line").selectOption("plans");
  await dialog.getByRole("group", { name: "Free trial" }).getByRole("checkbox").uncheck();
  await dialog.getByLabel("Free trial: how many").fill("14");
  const price = dialog.getByRole("group", { name: "Price 1" });
  await price.getByLabel("USD").fill("9.99");
  await price.getByLabel("EUR").fill("9");
  await dialog.getByRole("button", { name: "Include an item" }).click();
  const included = dialog.getByRole("group", { name: "Included item credits" });
  await included.getByLabel("Quantity").fill("100");
  await included.getByRole("group", { name: "Granted again every" }).getByRole("checkbox").uncheck();
  await dialog.getByRole("button", { name: "Add product" }).click();
  await expect.poll(() => dialog.isVisible()).toBe(false);

  expect((await payments()).products.pro).toMatchObject({
    displayName: "Pro",
    customerType: "user",
    productLineId: "plans",
    freeTrial: [14, "day"],
    prices: { monthly: { USD: "9.99", EUR: "9", interval: [1, "month"], serverOnly: false } },
    includedItems: { credits: { quantity: 100, repeat: [1, "month"], expires: "when-repeated" } },
  });
  await expect.poll(() => rows("Products").count()).toBe(1);
  const row = await rows("Products").first().textContent();
  expect(row).toContain("9.99 USD, 9 EUR / month");
  expect(row).toContain("100 × credits every month");
  await screenshot(page, "payments-catalogue");

  // Edit: make it stackable and add a one-time price; the product's key is written whole.
  await card("Products").getByRole("button", { name: "Edit product pro" }).click();
  const edit = page.getByRole("dialog", { name: "Edit product pro" });
  await edit.getByRole("switch", { name: "Stackable" }).check();
  await edit.getByRole("button", { name: "Add price" }).click();
  const second = edit.getByRole("group", { name: "Price 2" });
  await second.getByLabel("Price id").fill("lifetime");
  await second.getByLabel("USD").fill("199");
  await second.getByRole("group", { name: "Billed every" }).getByRole("checkbox").check();
  await edit.getByRole("button", { name: "Save product" }).click();
  await expect.poll(async () => (await payments()).products.pro?.stackable).toBe(true);
  const prices = (await payments()).products.pro!.prices as Record<string, Record<string, unknown>>;
  expect(Object.keys(prices)).toEqual(["monthly", "lifetime"]);
  expect(prices.lifetime).toEqual({ USD: "199", serverOnly: false });
});

test("refuses two prices with one id before writing, and marks a free plan as included by default", async () => {
  await openCatalogue();
  const writes = recordAdminWrites(page);
  await card("Products").getByRole("button", { name: "Add product" }).click();
  const dialog = page.getByRole("dialog", { name: "Add a product" });
  await dialog.getByLabel("Product id").fill("twice");
  await dialog.getByRole("button", { name: "Add price" }).click();
  await dialog.getByRole("group", { name: "Price 2" }).getByLabel("Price id").fill("monthly");
  await dialog.getByRole("button", { name: "Add product" }).click();
  await expect.poll(() => dialog.getByRole("alert").textContent()).toBe("Two prices have the same id.");
  expect(writes.take()).toEqual([]);

  await dialog.getByLabel("Product id").fill("free");
  await dialog.getByRole("switch", { name: "Included by default" }).check();
  await dialog.getByRole("button", { name: "Add product" }).click();
  await expect.poll(() => dialog.isVisible()).toBe(false);
  expect((await payments()).products.free?.prices).toBe("include-by-default");
  await expect.poll(async () => (await rows("Products").allTextContents()).join("|")).toContain("Free (included by default)");
});

test("lists names that do not resolve, stored as the API took them, until what they name exists", async () => {
  await owner.project.updateConfig({
    "payments.products.gems-pack": { prices: { once: { USD: "5" } }, includedItems: { gems: { quantity: 10 } } },
  });
  await openCatalogue();
  const problems = card("Catalogue problems");
  await expect
    .poll(() => problems.getByRole("alert").textContent())
    .toBe('payments.products.gems-pack.includedItems.gems must name an existing item ("gems" does not exist)');
  await addItem("gems", "Gems");
  await expect.poll(() => card("Catalogue problems").count()).toBe(0);
});

test("shows the server's refusal of an amount with too many decimals, writing nothing", async () => {
  await openCatalogue();
  await card("Products").getByRole("button", { name: "Add product" }).click();
  const dialog = page.getByRole("dialog", { name: "Add a product" });
  await dialog.getByLabel("Product id").fill("precise");
  await dialog.getByRole("group", { name: "Price 1" }).getByLabel("USD").fill("9.999");
  await dialog.getByRole("button", { name: "Add product" }).click();
  await expect.poll(() => dialog.getByRole("alert").textContent()).toContain("Too many decimals; USD only has 2 decimals");
  expect((await payments()).products.precise).toBeUndefined();
});
