/**
 * The payments test clock on the Payments settings page: in test mode it
 * shows the project's payments time and moves it forward by a day, a week, a
 * month or a custom amount, and a customer's monthly credits come again (seen
 * on the user's page). A custom amount that is not a whole number is refused
 * on the page; a move the server refuses (test mode turned off elsewhere)
 * shows the server's words; outside test mode the page offers no move.
 */
import type { Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, expect, test } from "vitest";
import { dashboardWithOwner, flipSetting, screenshot, uniqueEmail, type Dashboard, type ProjectOwner } from "./dashboard.ts";

const DAY = 24 * 60 * 60 * 1000;
const WAIT = { timeout: 10_000 };

let dashboard: Dashboard;
let page: Page;
let owner: ProjectOwner;

beforeAll(async () => {
  ({ dashboard, owner, page } = await dashboardWithOwner());
  await owner.project.updateConfig({
    "payments.items.credits": { displayName: "Credits", customerType: "user" },
    "payments.products.pro": {
      displayName: "Pro",
      prices: { monthly: { USD: "10", interval: [1, "month"] } },
      includedItems: { credits: { quantity: 100, repeat: [1, "month"], expires: "never" } },
    },
  });
});
afterAll(() => dashboard?.close());
afterEach(() => dashboard.expectNoPageErrors());

const clockCard = () => page.getByRole("region", { name: "Test clock" });
const moves = () => clockCard().getByRole("group", { name: "Move the clock forward" });
const ahead = () => clockCard().getByRole("definition").nth(1).textContent();
const settingsPage = () => `${dashboard.url}/projects/${owner.id}/payments-settings`;

async function openSettings() {
  await page.goto(settingsPage());
  await expect.poll(ahead, WAIT).not.toBeNull();
}

test("a month on the clock renews a subscription's monthly credits, seen on the user's page", async () => {
  const user = await owner.project.app.createUser({ primaryEmail: uniqueEmail("clock") });
  await owner.project.app.grantProduct({ userId: user.id, productId: "pro" });
  expect((await owner.project.app.getItem({ itemId: "credits", userId: user.id })).quantity).toBe(100);

  await openSettings();
  expect(await ahead()).toBe("Not moved: real time");
  expect(await clockCard().textContent()).toContain("See month three today");
  const shownTime = await clockCard().locator("time").getAttribute("datetime");
  expect(Math.abs(new Date(shownTime!).getTime() - Date.now())).toBeLessThan(DAY);

  await moves().getByRole("button", { name: "+1 month" }).click();
  await expect.poll(() => clockCard().getByRole("status").textContent(), WAIT).toContain("Moved forward 1 month.");
  await expect.poll(ahead, WAIT).toBe("30 days");
  const movedTime = await clockCard().locator("time").getAttribute("datetime");
  expect(new Date(movedTime!).getTime() - Date.now()).toBeGreaterThan(29 * DAY);
  expect((await owner.project.app.getPaymentsTestClock()).offsetMillis).toBe(30 * DAY);
  await screenshot(page, "payments-test-clock");

  // The owner follows the link to the customers and opens the user: the month's credits came again.
  await clockCard().getByRole("link", { name: "users" }).click();
  await page.waitForURL((url) => url.pathname === `/projects/${owner.id}/users`);
  await page.goto(`${dashboard.url}/projects/${owner.id}/users/${user.id}`);
  const items = page.getByRole("region", { name: "Items" });
  await expect.poll(() => items.getByRole("row").filter({ hasText: "Credits" }).getByRole("cell").nth(1).textContent(), WAIT).toBe("200");
  const products = page.getByRole("region", { name: "Products" });
  await expect.poll(() => products.textContent(), WAIT).toContain("payments time is 30 days ahead of real time");
  expect(await products.getByRole("link", { name: "test clock" }).getAttribute("href")).toBe(`/projects/${owner.id}/payments-settings`);
  // Its next renewal is the end of the second month.
  const renewal = page.getByRole("region", { name: "Products" }).getByRole("row", { name: /^Pro pro 1 Renews/ });
  await expect.poll(() => renewal.count(), WAIT).toBe(1);
  const renews = new Date((await renewal.locator("time").getAttribute("datetime"))!).getTime();
  expect(renews - Date.now()).toBeGreaterThan(59 * DAY);
  expect(renews - Date.now()).toBeLessThan(61 * DAY);
});

test("a custom amount moves by weeks; an amount that is not a whole number is refused on the page", async () => {
  await openSettings();
  const before = (await owner.project.app.getPaymentsTestClock()).offsetMillis;
  const custom = clockCard().getByRole("form", { name: "Move the clock by a custom amount" });
  await custom.getByLabel("Amount").fill("1.5");
  await custom.getByRole("button", { name: "Move forward" }).click();
  await expect.poll(() => custom.getByText("Give a whole number from 1 to 9999.").count()).toBe(1);
  expect(await custom.getByLabel("Amount").getAttribute("aria-invalid")).toBe("true");
  expect((await owner.project.app.getPaymentsTestClock()).offsetMillis).toBe(before);

  await custom.getByLabel("Amount").fill("2");
  await custom.getByLabel("Unit").selectOption("week");
  await custom.getByRole("button", { name: "Move forward" }).click();
  await expect.poll(() => clockCard().getByRole("status").textContent(), WAIT).toContain("Moved forward 2 weeks.");
  expect((await owner.project.app.getPaymentsTestClock()).offsetMillis).toBe(before + 14 * DAY);
  await expect.poll(ahead, WAIT).toBe(`${(before + 14 * DAY) / DAY} days`);
  expect(await custom.getByLabel("Amount").inputValue()).toBe("");

  await moves().getByRole("button", { name: "+1 day" }).click();
  await expect.poll(() => clockCard().getByRole("status").textContent(), WAIT).toContain("Moved forward 1 day.");
  await moves().getByRole("button", { name: "+1 week" }).click();
  await expect.poll(() => clockCard().getByRole("status").textContent(), WAIT).toContain("Moved forward 1 week.");
  expect((await owner.project.app.getPaymentsTestClock()).offsetMillis).toBe(before + 22 * DAY);
});

test("a move after test mode was turned off elsewhere shows the server's refusal; outside test mode nothing moves", async () => {
  await openSettings();
  const before = (await owner.project.app.getPaymentsTestClock()).offsetMillis;
  // Turned off from another place (a colleague, the SDK): this page still shows the clock.
  await owner.project.updateConfig({ "payments.testMode": false });
  await moves().getByRole("button", { name: "+1 day" }).click();
  await expect.poll(() => clockCard().getByRole("alert").textContent(), WAIT).toContain("Test mode is not enabled for this project");
  expect((await owner.project.app.getPaymentsTestClock()).offsetMillis).toBe(before);

  await page.reload();
  await expect.poll(() => clockCard().textContent(), WAIT).toContain("The test clock works in test mode only.");
  expect(await moves().count()).toBe(0);
  expect(await ahead()).toContain("counted again when test mode is back on");
  await screenshot(page, "payments-test-clock-off");

  await flipSetting(page, "Test mode", false);
  await expect.poll(() => moves().count(), WAIT).toBe(1);
  await expect.poll(ahead, WAIT).toBe(`${before / DAY} days`);
});
