/**
 * Account settings' Billing section in Chromium, in the demo app against a
 * real server whose Stripe is the loopback stand-in (the project's own key):
 * a user who subscribed to Pro (Stripe's signed webhooks say it was paid)
 * and saved a card sees the card, the plan and its invoice, and cancels the
 * plan (it stays owned until its period ends, no longer renewing). A user with nothing to bill sees no
 * Billing section. A user saves another card in Stripe's card form (Stripe.js stood in for, see
 * packages/server/test/stripe-js-stand-in.ts), which becomes their default; a declined card and Cancel
 * change nothing; a project without a publishable key says it takes no card.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, expect, test } from "vitest";
import { StackServerApp } from "../../../js/src/index.ts";
import { createSdkProject, type SdkProject } from "../../../js/test/server/fixtures.ts";
import { PASSWORD, startServer, uniqueEmail, type TestServer } from "../../../js/test/server/support.ts";
import { routeStripe, stripeJsCalls } from "../../../server/test/stripe-js-stand-in.ts";
import { stripeInvoice } from "../../../server/test/stripe-stand-in-billing.ts";
import { signedDelivery, startStripeStandIn, stripeEvent, type StripeStandIn } from "../../../server/test/stripe-stand-in.ts";
import { startDemoApp, type DemoApp } from "./demo-app.ts";

const WEBHOOK_SECRET = "whsec_ownkeybillingpage0123456789";

let stripe: StripeStandIn;
let server: TestServer;
let apiUrl: string;
let project: SdkProject;
let demo: DemoApp;
let own: ReturnType<StripeStandIn["addOwnAccount"]>;

beforeAll(async () => {
  stripe = await startStripeStandIn();
  ({ server, baseUrl: apiUrl } = await startServer({ stripe: { secretKey: null, webhookSecret: null, apiUrl: stripe.url } }));
  project = await createSdkProject(apiUrl);
  await project.project.updateConfig({
    "payments.testMode": false,
    "payments.products.pro": { displayName: "Pro", prices: { monthly: { USD: "10", interval: [1, "month"] } } },
  });
  own = stripe.addOwnAccount({ charges_enabled: true });
  await project.project.app.setStripeOwnKey({
    secretKey: own.secretKey,
    webhookSecret: WEBHOOK_SECRET,
    publishableKey: own.publishableKey,
  });
  demo = await startDemoApp({
    VITE_LATCHKEY_API_URL: apiUrl,
    VITE_LATCHKEY_PROJECT_ID: project.id,
    VITE_LATCHKEY_PUBLISHABLE_CLIENT_KEY: project.publishableClientKey,
  });
});

afterAll(async () => {
  await demo?.close();
  await server?.close();
  await stripe?.close();
});

async function signUp(page: Page): Promise<string> {
  const email = uniqueEmail("billing");
  await page.goto(`${demo.url}/components?show=credential-sign-up`);
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Sign up", exact: true }).click();
  await page.getByRole("heading", { name: "Welcome" }).waitFor();
  return email;
}

async function deliver(event: unknown) {
  const signed = signedDelivery(event, WEBHOOK_SECRET, server.clock.now());
  const res = await fetch(`${apiUrl}/api/v1/integrations/stripe/webhooks/${project.id}`, {
    method: "POST",
    headers: { "content-type": "application/json", "stripe-signature": signed.signature },
    body: signed.body,
  });
  expect(res.status).toBe(200);
}

/** The user subscribes to Pro through the purchase page's session, and Stripe says the first invoice was paid. */
async function subscribe(userId: string): Promise<void> {
  const serverApp = new StackServerApp({ baseUrl: apiUrl, projectId: project.id, secretServerKey: project.secretServerKey });
  const user = (await serverApp.getUser(userId))!;
  const fullCode = new URL(await user.createCheckoutUrl({ productId: "pro" })).pathname.split("/").pop()!;
  const session = await fetch(`${apiUrl}/api/v1/payments/purchases/purchase-session`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ full_code: fullCode, price_id: "monthly", quantity: 1 }),
  });
  expect(session.status).toBe(200);
  const subscription = [...stripe.subscriptions.values()].find((s) => s.json.metadata.latchkey_customer_id === userId)!.json.id;
  const start = Math.floor(server.clock.now() / 1000);
  const invoice = stripeInvoice({
    id: "in_page",
    subscription,
    status: "paid",
    total: 1000,
    created: start,
    hostedInvoiceUrl: "https://pay.test/in_page",
  });
  await deliver({
    ...stripeEvent("invoice.paid", {
      ...invoice,
      lines: { object: "list", data: [{ id: "il_page", object: "line_item", period: { start, end: start + 30 * 86400 } }] },
    }),
    created: start,
  });
  const customer = [...stripe.customers.values()].find((c) => c.json.metadata.latchkey_customer_id === userId)!.json.id;
  stripe.billing.attachCard(customer, { brand: "visa", last4: "4242", exp_month: 12, exp_year: 2034 });
}

test("a subscriber sees their card, plan and invoice, and cancels the plan; a user with nothing to bill sees no Billing", async () => {
  const page = await demo.openPage();
  const email = await signUp(page);
  await page.goto(`${demo.url}/handler/account-settings`);
  await page.getByRole("heading", { name: "Teams" }).waitFor();
  expect(await page.getByRole("heading", { name: "Billing" }).count()).toBe(0);

  const serverApp = new StackServerApp({ baseUrl: apiUrl, projectId: project.id, secretServerKey: project.secretServerKey });
  const [user] = await serverApp.listUsers({ query: email });
  await subscribe(user!.id);

  await page.reload();
  const billing = page.getByRole("region", { name: "Billing" });
  await billing.waitFor();
  await expect.poll(() => billing.textContent()).toContain("VISA · •••• 4242 · expires 12/2034");
  expect(await billing.textContent()).toContain("$10.00 · Paid");
  expect(await billing.getByRole("link", { name: "View" }).getAttribute("href")).toBe("https://pay.test/in_page");
  expect(await billing.textContent()).toMatch(/Pro · renews/);

  await billing.getByRole("button", { name: "Cancel Pro" }).click();
  await billing.getByRole("button", { name: "Cancel Pro" }).click();
  await expect.poll(() => billing.getByRole("button", { name: "Cancel Pro" }).count()).toBe(0);
  expect(await billing.getByRole("listitem").first().textContent()).toBe("Pro");
  expect(await billing.getByRole("alert").count()).toBe(0);
});

/** A signed-up user who subscribed (and saved a Visa) on a page that reaches the Stripe.js stand-in, on their account settings. */
async function subscriberOnSettings(): Promise<{ page: Page; userId: string }> {
  const page = await demo.openPage();
  await routeStripe(page, stripe);
  const email = await signUp(page);
  const serverApp = new StackServerApp({ baseUrl: apiUrl, projectId: project.id, secretServerKey: project.secretServerKey });
  const [user] = await serverApp.listUsers({ query: email });
  await subscribe(user!.id);
  await page.goto(`${demo.url}/handler/account-settings`);
  return { page, userId: user!.id };
}

async function defaultCardOf(userId: string) {
  const serverApp = new StackServerApp({ baseUrl: apiUrl, projectId: project.id, secretServerKey: project.secretServerKey });
  return (await (await serverApp.getUser(userId))!.getBilling()).defaultPaymentMethod;
}

const VISA = "VISA · •••• 4242 · expires 12/2034";

test("a user saves another card, which becomes their default; Cancel and a declined card change nothing", async () => {
  const { page, userId } = await subscriberOnSettings();
  const billing = page.getByRole("region", { name: "Billing" });
  await expect.poll(() => billing.textContent()).toContain(VISA);
  const visa = await defaultCardOf(userId);
  const dialog = page.getByRole("dialog", { name: "Update payment method" });

  // Cancel: the form showed, nothing was confirmed, the card is the one it was.
  await billing.getByRole("button", { name: "Update payment method" }).click();
  await dialog.getByLabel("Card number").waitFor();
  // The own account's key, on the key's own account (no Stripe-Account).
  expect((await stripeJsCalls(page)).loads).toEqual([{ key: own.publishableKey, options: undefined }]);
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect.poll(() => dialog.count()).toBe(0);
  expect(await billing.textContent()).toContain(VISA);
  expect((await stripeJsCalls(page)).confirmedSetups).toEqual([]);

  // Escape closes it too.
  await billing.getByRole("button", { name: "Update payment method" }).click();
  await dialog.getByLabel("Card number").waitFor();
  await page.keyboard.press("Escape");
  await expect.poll(() => dialog.count()).toBe(0);

  // A declined card: Stripe's message in the dialog, the default stays.
  await billing.getByRole("button", { name: "Update payment method" }).click();
  await dialog.getByRole("button", { name: "Save card" }).click();
  await expect.poll(() => dialog.getByRole("alert").textContent()).toBe("Your card number is incomplete.");
  await dialog.getByLabel("Card number").fill("4000000000000002");
  await dialog.getByRole("button", { name: "Save card" }).click();
  await expect.poll(() => dialog.getByRole("alert").textContent()).toBe("Your card was declined.");
  expect((await stripeJsCalls(page)).confirmedSetups.map((c) => c.succeeded)).toEqual([false]);
  expect(await defaultCardOf(userId)).toEqual(visa);
  expect(await billing.textContent()).toContain(VISA);

  // Another card on the same form: saved with Stripe, made the default, shown in the section.
  await dialog.getByLabel("Card number").fill("5555555555554444");
  await dialog.getByRole("button", { name: "Save card" }).click();
  await expect.poll(() => dialog.count()).toBe(0);
  await expect.poll(() => billing.textContent()).toContain("MASTERCARD · •••• 4444 · expires 8/2031");
  expect(await billing.textContent()).not.toContain(VISA);
  const confirmed = (await stripeJsCalls(page)).confirmedSetups;
  expect(confirmed.map((c) => c.succeeded)).toEqual([false, true]);
  // The one SetupIntent the dialog was opened with, tried twice.
  expect(confirmed[0]!.setupIntent).toBe(confirmed[1]!.setupIntent);
  const saved = await defaultCardOf(userId);
  expect(saved).toMatchObject({ brand: "mastercard", last4: "4444", exp_month: 8, exp_year: 2031 });
  expect(saved!.id).toBe(stripe.billing.setupIntents.get(confirmed[1]!.setupIntent)!.json.payment_method);
  expect(await billing.getByRole("alert").count()).toBe(0);
  // Loaded once for the page, however often the dialog opened.
  expect((await stripeJsCalls(page)).loads).toHaveLength(1);
});

test("the server's refusal shows in the dialog; a project that gave no publishable key says a card cannot be saved", async () => {
  const { page, userId } = await subscriberOnSettings();
  const billing = page.getByRole("region", { name: "Billing" });
  await expect.poll(() => billing.textContent()).toContain(VISA);

  // Stripe does not answer the server: no SetupIntent, and the dialog says so.
  stripe.down = true;
  try {
    await billing.getByRole("button", { name: "Update payment method" }).click();
    const dialog = page.getByRole("dialog", { name: "Update payment method" });
    await expect.poll(() => dialog.getByRole("alert").textContent()).toBe("Something went wrong. Please try again.");
    expect(await dialog.getByRole("button", { name: "Save card" }).count()).toBe(0);
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect.poll(() => dialog.count()).toBe(0);
  } finally {
    stripe.down = false;
  }

  await project.project.app.setStripeOwnKey({ secretKey: own.secretKey, webhookSecret: WEBHOOK_SECRET });
  try {
    await billing.getByRole("button", { name: "Update payment method" }).click();
    const dialog = page.getByRole("dialog", { name: "Update payment method" });
    await expect
      .poll(() => dialog.getByRole("note").textContent())
      .toBe("Payment by card is not set up for this project: a card cannot be saved here.");
    expect(await dialog.getByRole("button", { name: "Save card" }).count()).toBe(0);
    expect(await page.evaluate(() => "__stripeJsCalls" in window)).toBe(false);
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect.poll(() => dialog.count()).toBe(0);
    expect(await defaultCardOf(userId)).toMatchObject({ brand: "visa", last4: "4242" });
  } finally {
    await project.project.app.setStripeOwnKey({
      secretKey: own.secretKey,
      webhookSecret: WEBHOOK_SECRET,
      publishableKey: own.publishableKey,
    });
  }
});
