/**
 * Paying by card on the purchase page, end to end: a project onboarded with
 * Connect (on the Stripe API stand-in), a buyer who opens the checkout URL,
 * types a card into Stripe's form (Stripe.js itself stood in for, see
 * packages/server/test/stripe-js-stand-in.ts), pays, and lands on the return page, which shows the
 * payment succeeded and leads back to the app; the product arrives once Stripe
 * tells the server (the signed webhook). Also: a declined card and another
 * try, what the page shows for an owned product, a plan change and an account
 * that may not charge, no Stripe.js in test mode, and a return address that
 * is not trusted.
 */
import type { Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, expect, test } from "vitest";
import { StackAdminApp } from "../../../../packages/js/src/index.ts";
import { clientAppOf } from "../../../../packages/js/test/server/fixtures.ts";
import type { Auth } from "../../../../packages/server/test/harness.ts";
import { signedDelivery, startStripeStandIn, stripeEvent, type StripeStandIn } from "../../../../packages/server/test/stripe-stand-in.ts";
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
import { routeStripe, stripeJsCalls } from "../../../../packages/server/test/stripe-js-stand-in.ts";

const WEBHOOK_SECRET = "whsec_dashboardcardtest0123";
const RETURN_URL = "http://localhost:3000/after-purchase";
const CARD = "4242424242424242";
const DECLINED_CARD = "4000000000000002";

const CATALOGUE = {
  "payments.items.credits": { displayName: "Credits", customerType: "user" },
  "payments.productLines.plans": { displayName: "Plans", customerType: "user" },
  "payments.products.pro": { displayName: "Pro", productLineId: "plans", prices: { monthly: { USD: "10", interval: [1, "month"] } } },
  "payments.products.premium": {
    displayName: "Premium",
    productLineId: "plans",
    prices: { monthly: { USD: "20", interval: [1, "month"] } },
  },
  "payments.products.lifetime": {
    displayName: "Lifetime",
    prices: { once: { USD: "50" } },
    includedItems: { credits: { quantity: 25, expires: "never" } },
  },
  "payments.products.bento": { displayName: "Bento", prices: { once: { EUR: "8", JPY: "1200" } } },
};

let stripe: StripeStandIn;
let dashboard: Dashboard;
let shop: { owner: ProjectOwner; admin: StackAdminApp; accountId: string };

/** A project with the catalogue, onboarded with Connect and out of test mode; its account may charge unless told. */
async function connectedShop(chargesEnabled = true) {
  const owner = await ownerWithProject(dashboard.url);
  await owner.project.updateConfig(CATALOGUE);
  const as: Auth = { type: "admin", projectId: owner.id, superSecretAdminKey: owner.superSecretAdminKey };
  const setup = await dashboard.server.request("/internal/payments/setup", { method: "POST", as });
  expect(setup.status, setup.text).toBe(200);
  const accountId = new URL(setup.body.url as string).pathname.split("/")[3]!;
  stripe.updateAccount(accountId, { charges_enabled: chargesEnabled, details_submitted: chargesEnabled });
  // Read once, the account's state is kept as Stripe says it now.
  const info = await dashboard.server.request("/internal/payments/stripe/account-info", { as });
  expect(info.body.charges_enabled).toBe(chargesEnabled);
  await owner.project.updateConfig({ "payments.testMode": false });
  const admin = new StackAdminApp({ baseUrl: dashboard.url, projectId: owner.id, superSecretAdminKey: owner.superSecretAdminKey });
  return { owner, admin, accountId };
}

beforeAll(async () => {
  stripe = await startStripeStandIn();
  dashboard = await startDashboard({
    config: {
      stripe: {
        secretKey: stripe.platformKey,
        webhookSecret: WEBHOOK_SECRET,
        publishableKey: stripe.platformPublishableKey,
        apiUrl: stripe.url,
      },
    },
  });
  shop = await connectedShop();
});
afterAll(async () => {
  await dashboard?.close();
  await stripe?.close();
});
afterEach(() => dashboard.expectNoPageErrors());

async function buyer(owner: ProjectOwner = shop.owner) {
  const app = clientAppOf(dashboard.url, owner);
  const result = await app.signUpWithCredential({ email: uniqueEmail("card-buyer"), password: PASSWORD, noRedirect: true });
  if (result.status !== "ok") throw result.error;
  return app.getUser({ or: "throw" });
}

const payButton = (page: Page) => page.getByRole("button", { name: "Pay", exact: true });

/** Waits for the card form to be mounted and ready (Pay is enabled once it is, unless the page disables it). */
async function cardFormReady(page: Page) {
  await expect.poll(() => page.getByLabel("Card number").count(), { timeout: 15_000 }).toBe(1);
}

/** What the customer owns now, read from the server (the SDK's read is kept a while). */
async function ownedProducts(userId: string): Promise<string[]> {
  const as: Auth = { type: "admin", projectId: shop.owner.id, superSecretAdminKey: shop.owner.superSecretAdminKey };
  const res = await dashboard.server.request(`/payments/products/user/${userId}`, { as });
  expect(res.status, res.text).toBe(200);
  return (res.body.items as { id: string }[]).map((item) => item.id);
}

/** What Stripe sends the platform once the buyer's payment intent succeeded. */
async function stripeSaysPaid(userId: string) {
  const intent = [...stripe.paymentIntents.values()].find((i) => i.json.metadata.latchkey_customer_id === userId)!;
  expect(intent.json.status).toBe("succeeded");
  const signed = signedDelivery(
    stripeEvent("payment_intent.succeeded", intent.json, shop.accountId),
    WEBHOOK_SECRET,
    dashboard.server.clock.now(),
  );
  const res = await dashboard.server.request("/integrations/stripe/webhooks", {
    method: "POST",
    body: signed.body,
    headers: { "content-type": "application/json; charset=utf-8", "stripe-signature": signed.signature },
  });
  expect(res.status, res.text).toBe(200);
}

test("a buyer pays by card, lands on the return page, and gets the product once Stripe says it was paid", async () => {
  const user = await buyer();
  const url = await user.createCheckoutUrl({ productId: "lifetime", returnUrl: RETURN_URL });
  const page = await dashboard.openPage();
  await routeStripe(page, stripe);
  await page.goto(url);
  await expectHeading(page, "Lifetime");
  await cardFormReady(page);
  const calls = await stripeJsCalls(page);
  expect(calls.loads).toEqual([{ key: stripe.platformPublishableKey, options: { stripeAccount: shop.accountId } }]);
  expect(calls.elementsOptions[0]).toMatchObject({ mode: "payment", currency: "usd", amount: 5000 });
  await page.getByLabel("Card number").fill(CARD);
  await screenshot(page, "purchase-card");

  await payButton(page).click();
  await page.waitForURL((u) => u.pathname === "/purchase/return", { timeout: 15_000 });
  await expectHeading(page, "Payment succeeded");
  const returned = new URL(page.url());
  expect(returned.searchParams.get("stripe_account_id")).toBe(shop.accountId);
  expect(returned.searchParams.get("purchase_full_code")).toBe(new URL(url).pathname.split("/").pop());
  expect(returned.searchParams.get("return_url")).toBe(RETURN_URL);
  const back = page.getByRole("link", { name: "Return to localhost:3000" });
  expect(await back.getAttribute("href")).toBe(RETURN_URL);
  await screenshot(page, "purchase-card-return");

  // Nothing is granted on the page's word: the product arrives with Stripe's event.
  expect(await ownedProducts(user.id)).toEqual([]);
  await stripeSaysPaid(user.id);
  expect(await ownedProducts(user.id)).toEqual(["lifetime"]);
  expect((await shop.admin.getItem({ itemId: "credits", userId: user.id })).quantity).toBe(25);

  // The same return page naming another address: the payment is shown, but the page leads nowhere.
  returned.searchParams.set("return_url", "https://evil.example.net/after-purchase");
  await page.goto(returned.toString());
  await expectHeading(page, "Payment succeeded");
  await expect.poll(() => page.getByRole("note").textContent()).toContain("not one of this project's trusted domains");
  expect(await page.getByRole("link", { name: /Return to/ }).count()).toBe(0);

  // A return page for a payment that is not this code's (a made-up secret) shows no success.
  returned.searchParams.set("payment_intent_client_secret", "pi_madeup_secret_nothing");
  await page.goto(returned.toString());
  await expectHeading(page, "Payment failed");
});

test("a price in euros and yen: the card form charges the currency the buyer chose, in its minor units", async () => {
  const user = await buyer();
  const page = await dashboard.openPage();
  await routeStripe(page, stripe);
  await page.goto(await user.createCheckoutUrl({ productId: "bento" }));
  await expectHeading(page, "Bento");
  await cardFormReady(page);
  // No USD amount: the price's first currency until the buyer picks another.
  const currency = page.getByLabel("Currency");
  expect(await currency.inputValue()).toBe("EUR");
  expect((await stripeJsCalls(page)).elementsOptions.at(-1)).toMatchObject({ mode: "payment", currency: "eur", amount: 800 });
  await currency.selectOption("JPY");
  await cardFormReady(page);
  expect((await stripeJsCalls(page)).elementsOptions.at(-1)).toMatchObject({ mode: "payment", currency: "jpy", amount: 1200 });
  await page.getByLabel("Card number").fill(CARD);
  await payButton(page).click();
  await page.waitForURL((u) => u.pathname === "/purchase/return", { timeout: 15_000 });
  await expectHeading(page, "Payment succeeded");
  const intents = [...stripe.paymentIntents.values()].filter((i) => i.json.metadata.latchkey_customer_id === user.id);
  expect(intents.map((i) => [i.json.currency, i.json.amount])).toEqual([["jpy", 1200]]);
});

test("once a payment is started, its currency stays: a declined card is retried in it", async () => {
  const user = await buyer();
  const page = await dashboard.openPage();
  await routeStripe(page, stripe);
  await page.goto(await user.createCheckoutUrl({ productId: "bento" }));
  await cardFormReady(page);
  const currency = page.getByLabel("Currency");
  expect(await currency.isDisabled()).toBe(false);
  expect(await page.getByRole("note", { name: "Payment started" }).count()).toBe(0);

  await page.getByLabel("Card number").fill(DECLINED_CARD);
  await payButton(page).click();
  await expect.poll(() => page.getByRole("alert").textContent()).toContain("Your card was declined.");
  expect(await currency.isDisabled()).toBe(true);
  expect(await page.getByRole("note", { name: "Payment started" }).textContent()).toContain("start again from the app");

  await page.getByLabel("Card number").fill(CARD);
  await payButton(page).click();
  await page.waitForURL((u) => u.pathname === "/purchase/return", { timeout: 15_000 });
  await expectHeading(page, "Payment succeeded");
  const intents = [...stripe.paymentIntents.values()].filter((i) => i.json.metadata.latchkey_customer_id === user.id);
  expect(intents.map((i) => [i.json.currency, i.json.amount])).toEqual([["eur", 800]]);
});

test("a declined card says so on the purchase page, and another card pays the same purchase", async () => {
  const user = await buyer();
  const page = await dashboard.openPage();
  await routeStripe(page, stripe);
  await page.goto(await user.createCheckoutUrl({ productId: "lifetime" }));
  await cardFormReady(page);
  // An empty card is refused by Stripe's own check, before anything is made.
  await payButton(page).click();
  await expect.poll(() => page.getByRole("alert").textContent()).toContain("Your card number is incomplete.");
  expect([...stripe.paymentIntents.values()].filter((i) => i.json.metadata.latchkey_customer_id === user.id)).toHaveLength(0);

  await page.getByLabel("Card number").fill(DECLINED_CARD);
  await payButton(page).click();
  await expect.poll(() => page.getByRole("alert").textContent()).toContain("Your card was declined.");
  expect(new URL(page.url()).pathname).not.toBe("/purchase/return");

  await page.getByLabel("Card number").fill(CARD);
  await payButton(page).click();
  await page.waitForURL((u) => u.pathname === "/purchase/return", { timeout: 15_000 });
  await expectHeading(page, "Payment succeeded");
  await expect.poll(() => page.getByRole("status").textContent()).toContain("your payment went through");
  // One payment, confirmed twice: the code paid for is not asked for again.
  expect([...stripe.paymentIntents.values()].filter((i) => i.json.metadata.latchkey_customer_id === user.id)).toHaveLength(1);
  await stripeSaysPaid(user.id);
  expect(await ownedProducts(user.id)).toEqual(["lifetime"]);
});

test("an owned product cannot be paid for again; a plan change is pointed out but allowed", async () => {
  const user = await buyer();
  const owned = await user.createCheckoutUrl({ productId: "lifetime" });
  await shop.admin.grantProduct({ userId: user.id, productId: "lifetime" });
  const page = await dashboard.openPage();
  await routeStripe(page, stripe);
  await page.goto(owned);
  await expectHeading(page, "Lifetime");
  await cardFormReady(page);
  expect(await page.getByRole("note", { name: "Already Purchased" }).textContent()).toContain("You already own this product.");
  expect(await payButton(page).isDisabled()).toBe(true);
  await screenshot(page, "purchase-card-owned");

  await shop.admin.grantProduct({ userId: user.id, productId: "pro" });
  await page.goto(await user.createCheckoutUrl({ productId: "premium" }));
  await expectHeading(page, "Premium");
  await cardFormReady(page);
  expect(await page.getByRole("note", { name: "Plan Change Detected" }).textContent()).toContain("Buying this replaces Pro.");
  await expect.poll(() => payButton(page).isEnabled()).toBe(true);
  expect((await stripeJsCalls(page)).elementsOptions[0]).toMatchObject({ mode: "subscription", currency: "usd", amount: 2000 });
});

test("an account that may not charge shows no form, and test mode loads no Stripe.js", async () => {
  const notYet = await connectedShop(false);
  const user = await buyer(notYet.owner);
  const page = await dashboard.openPage();
  const { scriptRequests } = await routeStripe(page, stripe);
  await page.goto(await user.createCheckoutUrl({ productId: "lifetime" }));
  await expectHeading(page, "Payments not enabled");
  expect(await page.getByRole("note").textContent()).toContain("cannot take payments yet");
  expect(await payButton(page).count()).toBe(0);
  await screenshot(page, "purchase-card-not-enabled");

  const testing = await ownerWithProject(dashboard.url);
  await testing.project.updateConfig(CATALOGUE);
  const tester = await buyer(testing);
  await page.goto(await tester.createCheckoutUrl({ productId: "lifetime" }));
  await expectHeading(page, "Lifetime");
  await page.getByRole("button", { name: "Buy", exact: true }).click();
  await expectHeading(page, "Purchase complete");
  expect(scriptRequests).toEqual([]);
});

test("a purchase URL whose return address is not trusted is refused before any payment", async () => {
  const user = await buyer();
  const url = new URL(await user.createCheckoutUrl({ productId: "lifetime" }));
  url.searchParams.set("return_url", "https://evil.example.net/after-purchase");
  const page = await dashboard.openPage();
  const { scriptRequests } = await routeStripe(page, stripe);
  await page.goto(url.toString());
  await expect.poll(() => page.getByRole("alert").textContent(), { timeout: 15_000 }).toMatch(/redirect URL|not whitelisted|trusted/i);
  expect(await payButton(page).count()).toBe(0);
  expect(scriptRequests).toEqual([]);
});
