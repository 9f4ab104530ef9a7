/**
 * A user's and a team's products on their detail pages: a product of the
 * catalogue for that customer type granted by hand (a quantity only for a
 * stackable one), shown with its included items after; the server's
 * refusals (a product already owned, a product removed from the catalogue
 * meanwhile) shown in the dialog, nothing granted.
 */
import type { Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, expect, test } from "vitest";
import { dashboardWithOwner, expectHeading, screenshot, uniqueEmail, type Dashboard, type ProjectOwner } from "./dashboard.ts";

const WAIT = { timeout: 10_000 };

let dashboard: Dashboard;
let page: Page;
let owner: ProjectOwner;

beforeAll(async () => {
  ({ dashboard, owner, page } = await dashboardWithOwner());
  await owner.project.updateConfig({
    "payments.items.credits": { displayName: "Credits", customerType: "user" },
    "payments.items.seats": { displayName: "Seats", customerType: "team" },
    "payments.productLines.plans": { displayName: "Plans", customerType: "user" },
    "payments.products.pro": {
      displayName: "Pro",
      productLineId: "plans",
      prices: { monthly: { USD: "10", interval: [1, "month"] } },
      includedItems: { credits: { quantity: 100, repeat: [1, "month"], expires: "when-repeated" } },
    },
    "payments.products.packs": {
      displayName: "Credit pack",
      stackable: true,
      prices: { once: { USD: "5" } },
      includedItems: { credits: { quantity: 10, expires: "never" } },
    },
    "payments.products.team-plan": {
      displayName: "Team plan",
      customerType: "team",
      prices: { monthly: { USD: "30", interval: [1, "month"] } },
      includedItems: { seats: { quantity: 5, expires: "when-purchase-expires" } },
    },
  });
});
afterAll(() => dashboard?.close());
afterEach(() => dashboard.expectNoPageErrors());

const productsCard = () => page.getByRole("region", { name: "Products" });
/** The owned product's row: its display name, then its id. */
const ownedRow = (name: string, id: string) =>
  productsCard()
    .getByRole("table", { name: "Owned products" })
    .getByRole("row", { name: new RegExp(`^${name} ${id} `) });
const quantityOf = async (name: string) => {
  const row = page.getByRole("region", { name: "Items" }).getByRole("row").filter({ hasText: name });
  return (await row.getByRole("cell").nth(1).textContent())?.trim();
};

async function openGrant() {
  await productsCard().getByRole("button", { name: "Grant product" }).click();
  return page.getByRole("dialog", { name: "Grant a product" });
}

test("a user: grants a subscription, then a stackable product by quantity; their products and credits show after", async () => {
  const user = await owner.project.app.createUser({ primaryEmail: uniqueEmail("grants") });
  await page.goto(`${dashboard.url}/projects/${owner.id}/users/${user.id}`);
  await expect.poll(() => productsCard().getByText("No products yet.").count(), WAIT).toBe(1);
  await expect.poll(() => quantityOf("Credits"), WAIT).toBe("0");
  // The test clock was never moved: dates are today's, nothing to say.
  expect(await productsCard().textContent()).not.toContain("payments time");

  const dialog = await openGrant();
  const product = dialog.getByLabel("Product");
  // The user's products only: a team's plan is not offered.
  expect(await product.locator("option").allTextContents()).toEqual(["Credit pack (packs)", "Pro (pro)"]);
  await product.selectOption("pro");
  expect(await dialog.getByLabel("Quantity").count()).toBe(0);
  expect(await dialog.textContent()).toContain("In the Plans product line");
  await screenshot(page, "grant-product");
  await dialog.getByRole("button", { name: "Grant product" }).click();
  await expect.poll(() => dialog.isVisible(), WAIT).toBe(false);
  await expect.poll(() => productsCard().getByRole("status").textContent(), WAIT).toBe("Granted Pro.");
  await expect.poll(() => ownedRow("Pro", "pro").textContent(), WAIT).toContain("Renews");
  await expect.poll(() => quantityOf("Credits"), WAIT).toBe("100");

  const again = await openGrant();
  await again.getByLabel("Product").selectOption("packs");
  await again.getByLabel("Quantity").fill("0");
  await again.getByRole("button", { name: "Grant product" }).click();
  await expect.poll(() => again.getByRole("alert").textContent(), WAIT).toBe("Give a whole number of at least 1.");
  await again.getByLabel("Quantity").fill("3");
  await again.getByRole("button", { name: "Grant product" }).click();
  await expect.poll(() => again.isVisible(), WAIT).toBe(false);
  await expect.poll(() => ownedRow("Credit pack", "packs").getByRole("cell").nth(1).textContent(), WAIT).toBe("3");
  expect(await ownedRow("Credit pack", "packs").textContent()).toContain("Does not renew");
  await expect.poll(() => quantityOf("Credits"), WAIT).toBe("130");
  const owned = await owner.project.app.listProducts({ userId: user.id });
  expect(owned.map((p) => [p.id, p.quantity])).toEqual([
    ["pro", 1],
    ["packs", 3],
  ]);
  await screenshot(page, "user-products");
});

test("a user: granting a product they already own, or one removed from the catalogue meanwhile, shows the server's refusal", async () => {
  const user = await owner.project.app.createUser({ primaryEmail: uniqueEmail("refused") });
  await owner.project.app.grantProduct({ userId: user.id, productId: "pro" });
  await page.goto(`${dashboard.url}/projects/${owner.id}/users/${user.id}`);
  await expect.poll(() => ownedRow("Pro", "pro").count(), WAIT).toBe(1);

  const dialog = await openGrant();
  await dialog.getByLabel("Product").selectOption("pro");
  await dialog.getByRole("button", { name: "Grant product" }).click();
  await expect.poll(() => dialog.getByRole("alert").textContent(), WAIT).toBe(`Customer with ID "${user.id}" already owns product "pro".`);
  expect(await dialog.isVisible()).toBe(true);
  await dialog.getByRole("button", { name: "Cancel" }).click();

  // Removed elsewhere while this page still offers it.
  await owner.project.updateConfig({ "payments.products.packs": null });
  const stale = await openGrant();
  await stale.getByLabel("Product").selectOption("packs");
  await stale.getByRole("button", { name: "Grant product" }).click();
  await expect.poll(() => stale.getByRole("alert").textContent(), WAIT).toContain('"packs" does not exist');
  await stale.getByRole("button", { name: "Cancel" }).click();
  expect((await owner.project.app.listProducts({ userId: user.id })).map((p) => p.id)).toEqual(["pro"]);
  expect((await owner.project.app.getItem({ itemId: "credits", userId: user.id })).quantity).toBe(100);
});

test("a team: its own products only; the plan granted brings its seats", async () => {
  const team = await owner.project.app.createTeam({ displayName: "Grant team" });
  await page.goto(`${dashboard.url}/projects/${owner.id}/teams/${team.id}`);
  await expectHeading(page, "Grant team");
  await expect.poll(() => quantityOf("Seats"), WAIT).toBe("0");
  const dialog = await openGrant();
  expect(await dialog.getByLabel("Product").locator("option").allTextContents()).toEqual(["Team plan (team-plan)"]);
  await dialog.getByRole("button", { name: "Grant product" }).click();
  await expect.poll(() => dialog.isVisible(), WAIT).toBe(false);
  await expect.poll(() => ownedRow("Team plan", "team-plan").count(), WAIT).toBe(1);
  await expect.poll(() => quantityOf("Seats"), WAIT).toBe("5");
  expect((await owner.project.app.listProducts({ teamId: team.id })).map((p) => p.id)).toEqual(["team-plan"]);
});

test("a user's subscription cancelled from their page: kept with its items until its period ends, no longer renewing", async () => {
  const user = await owner.project.app.createUser({ primaryEmail: uniqueEmail("cancel") });
  await owner.project.app.grantProduct({ userId: user.id, productId: "pro" });
  await page.goto(`${dashboard.url}/projects/${owner.id}/users/${user.id}`);
  await expect.poll(() => ownedRow("Pro", "pro").textContent(), WAIT).toContain("Renews");

  // Changing one's mind keeps the subscription as it was.
  await ownedRow("Pro", "pro").getByRole("button", { name: "Cancel" }).click();
  const dialog = page.getByRole("dialog", { name: "Cancel a subscription" });
  expect(await dialog.textContent()).toContain("It will not renew");
  await dialog.getByRole("button", { name: "Cancel", exact: true }).click();
  await expect.poll(() => dialog.isVisible(), WAIT).toBe(false);
  expect((await owner.project.app.listProducts({ userId: user.id })).map((p) => [p.id, p.type])).toEqual([["pro", "subscription"]]);

  await ownedRow("Pro", "pro").getByRole("button", { name: "Cancel" }).click();
  await screenshot(page, "cancel-subscription");
  await dialog.getByRole("button", { name: "Cancel subscription" }).click();
  await expect.poll(() => dialog.isVisible(), WAIT).toBe(false);
  await expect.poll(() => productsCard().getByRole("status").textContent(), WAIT).toBe("Cancelled Pro: it is owned until its period ends.");
  await expect.poll(() => ownedRow("Pro", "pro").textContent(), WAIT).toContain("Does not renew");
  expect(await ownedRow("Pro", "pro").getByRole("button", { name: "Cancel" }).count()).toBe(0);
  expect(await quantityOf("Credits")).toBe("100");
  expect((await owner.project.app.listProducts({ userId: user.id })).map((p) => [p.id, p.type])).toEqual([["pro", "one_time"]]);
});

test("a customer with no products for its type to grant is told where to add one", async () => {
  await owner.project.updateConfig({ "payments.products.team-plan": null });
  const team = await owner.project.app.createTeam({ displayName: "Empty catalogue team" });
  await page.goto(`${dashboard.url}/projects/${owner.id}/teams/${team.id}`);
  await expect.poll(() => productsCard().textContent(), WAIT).toContain("The catalogue has no products for teams to grant.");
  expect(await productsCard().getByRole("button", { name: "Grant product" }).count()).toBe(0);
  expect(await productsCard().getByRole("link", { name: "Add one" }).getAttribute("href")).toBe(`/projects/${owner.id}/payments`);
});
