/**
 * The purchase page, end to end: an app's end user (signed in to the app,
 * not to the dashboard) opens the checkout URL the SDK made, sees the
 * seller, the product and its price, buys in test mode, and the product's
 * credits reach them; the payments test clock renews the month, and a
 * cancelled subscription is gone after its period. Outside test mode, with
 * no account that may charge, the page offers no purchase (paying by card:
 * purchase-card.test.ts); a used or unknown code says so.
 */
import type { Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, expect, test } from "vitest";
import { StackAdminApp } from "../../../../packages/js/src/index.ts";
import { clientAppOf } from "../../../../packages/js/test/server/fixtures.ts";
import {
  expectHeading,
  ownerWithProject,
  PASSWORD,
  screenshot,
  startDashboard,
  uniqueEmail,
  type Dashboard,
  type ProjectOwner,
} from "./dashboard.ts";

const DAY = 24 * 60 * 60 * 1000;
const RETURN_URL = "http://localhost:3000/after-purchase";

let dashboard: Dashboard;
let owner: ProjectOwner;
let admin: StackAdminApp;

const CATALOGUE = {
  "payments.items.credits": { displayName: "Credits", customerType: "user" },
  "payments.productLines.plans": { displayName: "Plans", customerType: "user" },
  "payments.products.pro": {
    displayName: "Pro",
    productLineId: "plans",
    prices: { monthly: { USD: "10", interval: [1, "month"] } },
    includedItems: { credits: { quantity: 100, repeat: [1, "month"], expires: "when-repeated" } },
  },
  "payments.products.premium": {
    displayName: "Premium",
    productLineId: "plans",
    prices: { monthly: { USD: "20", interval: [1, "month"], freeTrial: [7, "day"] } },
  },
  "payments.products.packs": {
    displayName: "Credit pack",
    stackable: true,
    prices: { small: { USD: "5", EUR: "4.50" }, large: { USD: "20" } },
    includedItems: { credits: { quantity: 10, expires: "never" } },
  },
};

beforeAll(async () => {
  dashboard = await startDashboard();
  owner = await ownerWithProject(dashboard.url);
  await owner.project.updateConfig(CATALOGUE);
  admin = new StackAdminApp({ baseUrl: dashboard.url, projectId: owner.id, superSecretAdminKey: owner.superSecretAdminKey });
});
afterAll(() => dashboard?.close());
afterEach(() => dashboard.expectNoPageErrors());

async function endUser(project: Pick<ProjectOwner, "id" | "publishableClientKey"> = owner) {
  const app = clientAppOf(dashboard.url, project);
  const result = await app.signUpWithCredential({ email: uniqueEmail("buyer"), password: PASSWORD, noRedirect: true });
  if (result.status !== "ok") throw result.error;
  return { app, user: await app.getUser({ or: "throw" }) };
}

const buyButton = (page: Page) => page.getByRole("button", { name: "Buy", exact: true });

test("an end user buys a monthly product in test mode; credits arrive, renew, and end after cancelling", async () => {
  const { app, user } = await endUser();
  const url = await user.createCheckoutUrl({ productId: "pro", returnUrl: RETURN_URL });
  expect(url.startsWith(`${dashboard.url}/purchase/`)).toBe(true);

  // A browser signed in nowhere: the code is the credential, no sign-in page comes between.
  const page = await dashboard.openPage();
  await page.goto(url);
  await expectHeading(page, "Pro");
  expect(new URL(page.url()).pathname).toBe(new URL(url).pathname);
  const card = await page.locator(".lk-card").textContent();
  expect(card).toContain("SDK test project");
  expect(card).toContain("$10.00 per month");
  expect(card).toContain("Test mode");
  await screenshot(page, "purchase-page");

  await buyButton(page).click();
  await expectHeading(page, "Purchase complete");
  const back = page.getByRole("link", { name: "Return to localhost:3000" });
  expect(await back.getAttribute("href")).toBe(RETURN_URL);
  await screenshot(page, "purchase-complete");

  // The user's own app sees the purchase.
  expect((await user.getItem("credits")).quantity).toBe(100);
  expect((await user.listProducts()).map((p) => [p.id, p.type])).toEqual([["pro", "subscription"]]);

  // A month later the credits are granted again; when-repeated: the new grant replaces the last.
  await admin.advancePaymentsTestClock(30 * DAY);
  expect((await admin.getItem({ itemId: "credits", userId: user.id })).quantity).toBe(100);
  expect((await admin.listProducts({ userId: user.id })).map((p) => p.id)).toEqual(["pro"]);

  // Cancelled: still owned until the period ends, then gone with its credits.
  await app.cancelSubscription({ productId: "pro" });
  expect((await user.listProducts()).map((p) => [p.id, p.subscription])).toEqual([["pro", null]]);
  await admin.advancePaymentsTestClock(31 * DAY);
  expect([...(await admin.listProducts({ userId: user.id }))]).toEqual([]);
  expect((await admin.getItem({ itemId: "credits", userId: user.id })).quantity).toBe(0);

  // The code was used up: opening the URL again says so and offers nothing.
  await page.goto(url);
  await expect.poll(() => page.getByRole("alert").textContent()).toContain("This purchase link is not valid");
  expect(await buyButton(page).count()).toBe(0);
});

test("a choice of prices, a quantity of a stackable product, a trial, and the plan a purchase replaces", async () => {
  const { user } = await endUser();
  const page = await dashboard.openPage();
  await page.goto(await user.createCheckoutUrl({ productId: "packs" }));
  await expectHeading(page, "Credit pack");
  const prices = page.getByRole("group", { name: "Choose a price" });
  // Both prices are offered, the first chosen until the buyer picks another.
  expect(await prices.getByRole("radio", { name: "$5.00 or €4.50" }).count()).toBe(1);
  expect(await prices.getByRole("radio").first().isChecked()).toBe(true);
  await prices.getByRole("radio", { name: "$20.00" }).check();
  await page.getByLabel("Quantity").fill("3");
  await screenshot(page, "purchase-page-choices");
  await buyButton(page).click();
  await expectHeading(page, "Purchase complete");
  expect(await page.getByRole("status").textContent()).toContain("Credit pack is yours (3)");
  expect((await user.listProducts()).map((p) => [p.id, p.quantity])).toEqual([["packs", 3]]);
  expect((await user.getItem("credits")).quantity).toBe(30);

  // Owning Pro, the Premium plan of the same line replaces it; its trial shows beside the price.
  await admin.grantProduct({ userId: user.id, productId: "pro" });
  await page.goto(await user.createCheckoutUrl({ productId: "premium" }));
  await expectHeading(page, "Premium");
  const card = await page.locator(".lk-card").textContent();
  expect(card).toContain("$20.00 per month · 7-day free trial");
  expect(card).toContain("Buying this replaces Pro.");
  expect(await page.getByLabel("Quantity").count()).toBe(0);
});

test("a price in several currencies offers a choice of currency, and the purchase is made in the chosen one", async () => {
  const { user } = await endUser();
  const page = await dashboard.openPage();
  await page.goto(await user.createCheckoutUrl({ productId: "packs" }));
  await expectHeading(page, "Credit pack");
  const currency = page.getByLabel("Currency");
  const prices = page.getByRole("group", { name: "Choose a price" });
  // A price in one currency offers no choice.
  await prices.getByRole("radio", { name: "$20.00" }).check();
  expect(await currency.count()).toBe(0);
  // One in dollars and euros does: dollars until the buyer picks euros.
  await prices.getByRole("radio", { name: "$5.00 or €4.50" }).check();
  expect(await currency.inputValue()).toBe("USD");
  expect(await currency.locator("option").allTextContents()).toEqual(["USD", "EUR"]);
  await currency.selectOption("EUR");
  await screenshot(page, "purchase-page-currency");

  const sent = page.waitForRequest((request) => request.url().endsWith("/internal/payments/test-mode-purchase-session"));
  await buyButton(page).click();
  await expectHeading(page, "Purchase complete");
  expect((await sent).postDataJSON()).toMatchObject({ price_id: "small", currency: "EUR" });
  expect((await user.listProducts()).map((p) => p.id)).toEqual(["packs"]);
});

test("outside test mode, without a Stripe account that may charge, the page offers no purchase", async () => {
  const live = await ownerWithProject(dashboard.url);
  await live.project.updateConfig(CATALOGUE);
  const { user } = await endUser(live);
  // A project outside test mode makes no checkout URL before its Stripe onboarding: the code is made in test
  // mode, and the project leaves test mode before the page opens.
  const url = await user.createCheckoutUrl({ productId: "pro" });
  await live.project.updateConfig({ "payments.testMode": false });
  const page = await dashboard.openPage();
  await page.goto(url);
  await expectHeading(page, "Payments not enabled");
  await expect.poll(() => page.getByRole("note").textContent()).toContain("cannot take payments yet");
  expect(await buyButton(page).count()).toBe(0);
  await screenshot(page, "purchase-page-live");
  const liveAdmin = new StackAdminApp({ baseUrl: dashboard.url, projectId: live.id, superSecretAdminKey: live.superSecretAdminKey });
  expect([...(await liveAdmin.listProducts({ userId: user.id }))]).toEqual([]);
});

test("an unknown code: the page says the link is not valid", async () => {
  const page = await dashboard.openPage();
  await page.goto(`${dashboard.url}/purchase/00000000-0000-4000-8000-000000000000_${"a".repeat(45)}`);
  await expect.poll(() => page.getByRole("alert").textContent()).toContain("This purchase link is not valid");
});
