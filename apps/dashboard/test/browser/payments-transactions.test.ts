/**
 * The Transactions page: the project's purchases and hand-made item changes
 * newest first, filtered by type and customer type, further pages read with
 * "Load more", and a purchase refunded after a confirmation (its product and
 * the items it includes revoked, the refund listed).
 */
import type { Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, expect, test } from "vitest";
import { dashboardWithOwner, expectHeading, screenshot, uniqueEmail, type Dashboard, type ProjectOwner } from "./dashboard.ts";

let dashboard: Dashboard;
let page: Page;
let owner: ProjectOwner;

beforeAll(async () => {
  ({ dashboard, owner, page } = await dashboardWithOwner());
  await owner.project.updateConfig({
    "payments.items.credits": { displayName: "Credits", customerType: "user" },
    "payments.items.tokens": { displayName: "Tokens", customerType: "custom" },
    "payments.products.packs": {
      displayName: "Packs",
      customerType: "user",
      stackable: true,
      prices: { each: { USD: "5" } },
      includedItems: { credits: { quantity: 10, expires: "when-purchase-expires" } },
    },
  });
});
afterAll(() => dashboard?.close());
afterEach(() => dashboard.expectNoPageErrors());

const table = () => page.getByRole("table", { name: "Transactions" });
const rows = () => table().locator("tbody tr");

/** Grants through the API with the project's server key (what an app's server does). */
async function grantPacks(userId: string, quantity: number) {
  const res = await fetch(`${dashboard.url}/api/v1/payments/products/user/${userId}`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-stack-access-type": "server",
      "x-stack-project-id": owner.id,
      "x-stack-secret-server-key": owner.secretServerKey,
    },
    body: JSON.stringify({ product_id: "packs", quantity }),
  });
  expect(res.status, await res.clone().text()).toBe(200);
}

async function openTransactions() {
  await page.goto(`${dashboard.url}/projects/${owner.id}`);
  await page.getByRole("navigation", { name: "Project" }).getByRole("link", { name: "Transactions" }).click();
  await expectHeading(page, "Transactions");
}

test("lists purchases and item changes, filters them, and refunds a purchase after a confirmation", async () => {
  await openTransactions();
  await expect.poll(() => page.getByText("No transactions yet.").count()).toBe(1);

  const user = await owner.project.app.createUser({ primaryEmail: uniqueEmail("buyer") });
  await owner.project.app.createItemQuantityChange({ customCustomerId: "acme", itemId: "tokens", quantity: 7 });
  await grantPacks(user.id, 2);
  await page.getByRole("button", { name: "Refresh" }).click();
  await expect.poll(() => rows().count()).toBe(2);
  const purchaseRow = rows().filter({ hasText: "Packs × 2" });
  expect(await purchaseRow.textContent()).toContain("Purchase");
  expect(await rows().nth(1).textContent()).toContain("tokens +7");
  expect(await rows().nth(1).textContent()).toContain("Custom: acme");

  await page.getByLabel("Type", { exact: true }).selectOption("manual-item-quantity-change");
  await expect.poll(() => rows().count()).toBe(1);
  expect(await rows().first().textContent()).toContain("Item change");
  await page.getByLabel("Type", { exact: true }).selectOption("");
  await page.getByLabel("Customer type").selectOption("user");
  await expect.poll(() => rows().count()).toBe(1);
  expect(await rows().first().textContent()).toContain("Packs × 2");
  await page.getByLabel("Customer type").selectOption("team");
  await expect.poll(() => page.getByText("No transactions match.").count()).toBe(1);
  await page.getByLabel("Customer type").selectOption("");
  await expect.poll(() => rows().count()).toBe(2);

  expect((await owner.project.app.getItem({ itemId: "credits", userId: user.id })).quantity).toBe(20);
  await page.getByRole("button", { name: "Refund Packs" }).click();
  const dialog = page.getByRole("dialog", { name: "Refund Packs?" });
  expect(await dialog.textContent()).toContain("It was not paid for, so no money goes back.");
  await screenshot(page, "transactions-refund");
  await dialog.getByRole("button", { name: "Refund", exact: true }).click();
  await expect.poll(() => dialog.isVisible()).toBe(false);
  await expect.poll(() => rows().count()).toBe(3);
  expect(await rows().first().textContent()).toContain("Revoked 2");
  expect(await rows().filter({ hasText: "Packs × 2" }).textContent()).toContain("Refunded");
  expect(await page.getByRole("button", { name: "Refund Packs" }).count()).toBe(0);
  const fresh = await owner.project.app.listTransactions({ type: "refund" });
  expect(fresh.transactions).toHaveLength(1);
  expect((await owner.project.app.getItem({ itemId: "credits", userId: user.id })).quantity).toBe(0);
});

test("reads 50 at a time; Load more adds the next page until there is none", async () => {
  for (let i = 0; i < 50; i++)
    await owner.project.app.createItemQuantityChange({ customCustomerId: `c${i}`, itemId: "tokens", quantity: 1 });
  const total = (await owner.project.app.listTransactions({ limit: 200 })).transactions.length;
  expect(total).toBeGreaterThan(50);
  await openTransactions();
  await expect.poll(() => rows().count()).toBe(50);
  await page.getByRole("button", { name: "Load more" }).click();
  await expect.poll(() => rows().count()).toBe(total);
  expect(await page.getByRole("button", { name: "Load more" }).count()).toBe(0);
  const ids = await rows().evaluateAll((trs) => trs.map((tr) => tr.textContent));
  expect(new Set(ids).size).toBeGreaterThan(1);
  await screenshot(page, "transactions");
});
