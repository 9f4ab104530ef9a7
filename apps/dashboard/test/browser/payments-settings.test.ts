/**
 * The Payments settings page: test mode and blocking new purchases as
 * settings written to the config, and the Stripe account: none at first,
 * then the project's own key, checked with a stand-in for Stripe's API,
 * kept (never shown again) and the account's state shown.
 */
import type { Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, expect, test } from "vitest";
import { eq } from "drizzle-orm";
import { paymentStripeAccounts } from "../../../../packages/server/src/capabilities/payments/account-schema.ts";
import { ownSecretsOf } from "../../../../packages/server/src/capabilities/payments/domain/stripe-account.ts";
import { startStripeStandIn, type StripeStandIn } from "../../../../packages/server/test/stripe-stand-in.ts";
import {
  expectHeading,
  flipSetting,
  ownerWithProject,
  signInOwner,
  startDashboard,
  type Dashboard,
  type ProjectOwner,
} from "./dashboard.ts";

let stripe: StripeStandIn;
let dashboard: Dashboard;
let page: Page;
let owner: ProjectOwner;

beforeAll(async () => {
  stripe = await startStripeStandIn();
  dashboard = await startDashboard({
    config: { stripe: { secretKey: stripe.platformKey, webhookSecret: "whsec_dashboardtest0123", apiUrl: stripe.url } },
  });
  owner = await ownerWithProject(dashboard.url);
  page = await dashboard.openPage();
  await signInOwner(page, dashboard.url, owner.email);
});
afterAll(async () => {
  await dashboard?.close();
  await stripe?.close();
});
afterEach(() => dashboard.expectNoPageErrors());

const stripeCard = () => page.getByRole("region", { name: "Stripe" });

test("turns test mode off and blocks new purchases through the config", async () => {
  await page.goto(`${dashboard.url}/projects/${owner.id}/payments-settings`);
  await expectHeading(page, "Payments settings");
  await flipSetting(page, "Test mode", true);
  await flipSetting(page, "Block new purchases", false);
  const payments = (await owner.project.getConfig()).payments;
  expect(payments.testMode).toBe(false);
  expect(payments.blockNewPurchases).toBe(true);
});

test("shows no account at first, then the project's own Stripe key's account, the key never shown again", async () => {
  await page.goto(`${dashboard.url}/projects/${owner.id}/payments-settings`);
  await expect.poll(() => stripeCard().textContent()).toContain("No Stripe account yet");
  await stripeCard().getByRole("button", { name: "Use my own Stripe key" }).click();
  const dialog = page.getByRole("dialog", { name: "Use your own Stripe account" });
  const { secretKey } = stripe.addOwnAccount({ charges_enabled: true });
  await dialog.getByLabel("Secret key").fill(secretKey);
  await dialog.getByLabel("Webhook signing secret").fill("whsec_ownprojectsecret0123");
  await dialog.getByLabel("Publishable key").fill("pk_test_ownproject0123");
  await dialog.getByRole("button", { name: "Save keys" }).click();
  await expect.poll(() => dialog.isVisible()).toBe(false);
  const facts = stripeCard().getByRole("definition");
  await expect.poll(async () => (await facts.count()) > 0).toBe(true);
  expect(await stripeCard().textContent()).toContain("Can charge");
  expect(await page.content()).not.toContain(secretKey);
  expect(await owner.project.app.getStripeAccountInfo()).not.toBeNull();
  // Kept with the secret key, for the purchase page's card form.
  const services = dashboard.server.instance.services;
  const [row] = await services.db.select().from(paymentStripeAccounts).where(eq(paymentStripeAccounts.projectId, owner.id));
  expect((await ownSecretsOf(services, row!)).publishableKey).toBe("pk_test_ownproject0123");
});
