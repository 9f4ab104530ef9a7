/**
 * A user's and a team's items on their detail pages: the catalogue's items
 * of that customer type with their quantities, a grant with a reason and a
 * removal by hand, and a removal below zero refused with the server's words.
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
    "payments.items.seats": { displayName: "Seats", customerType: "team" },
  });
});
afterAll(() => dashboard?.close());
afterEach(() => dashboard.expectNoPageErrors());

const itemsCard = () => page.getByRole("region", { name: "Items" });
const quantityOf = async (name: string) => {
  const row = itemsCard().getByRole("row").filter({ hasText: name });
  return (await row.getByRole("cell").nth(1).textContent())?.trim();
};

async function changeItem(itemId: string, by: string, reason = "") {
  await itemsCard()
    .getByRole("button", { name: `Change ${itemId}` })
    .click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Change by").fill(by);
  if (reason) await dialog.getByLabel("Reason").fill(reason);
  await dialog.getByRole("button", { name: "Save change" }).click();
  return dialog;
}

test("a user's items: grant with a reason, remove, and a removal below zero refused", async () => {
  const user = await owner.project.app.createUser({ primaryEmail: uniqueEmail("items") });
  await page.goto(`${dashboard.url}/projects/${owner.id}/users/${user.id}`);
  await expect.poll(() => itemsCard().count()).toBe(1);
  await expect.poll(() => quantityOf("Credits")).toBe("0");
  expect(await itemsCard().textContent()).not.toContain("Seats");

  const grant = await changeItem("credits", "25", "Welcome bonus");
  await expect.poll(() => grant.isVisible()).toBe(false);
  await expect.poll(() => quantityOf("Credits")).toBe("25");
  expect((await owner.project.app.getItem({ itemId: "credits", userId: user.id })).quantity).toBe(25);

  const removal = await changeItem("credits", "-5");
  await expect.poll(() => removal.isVisible()).toBe(false);
  await expect.poll(() => quantityOf("Credits")).toBe("20");

  const tooMuch = await changeItem("credits", "-50");
  await expect.poll(() => tooMuch.getByRole("alert").textContent()).toContain("has an insufficient quantity");
  await tooMuch.getByRole("button", { name: "Cancel" }).click();
  expect((await owner.project.app.getItem({ itemId: "credits", userId: user.id })).quantity).toBe(20);
  await screenshot(page, "user-items");
});

test("a team's items: its own item type only, granted by hand", async () => {
  const team = await owner.project.app.createTeam({ displayName: "Item team" });
  await page.goto(`${dashboard.url}/projects/${owner.id}/teams/${team.id}`);
  await expectHeading(page, "Item team");
  await expect.poll(() => quantityOf("Seats")).toBe("0");
  expect(await itemsCard().textContent()).not.toContain("Credits");
  const grant = await changeItem("seats", "3");
  await expect.poll(() => grant.isVisible()).toBe(false);
  await expect.poll(() => quantityOf("Seats")).toBe("3");
});
