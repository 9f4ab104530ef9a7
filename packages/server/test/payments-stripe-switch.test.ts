/**
 * Switching a subscription to another product of its line (POST
 * /payments/products/{user|team}/{id}/switch) against the Stripe stand-in:
 * the Stripe subscription moves to the new price, charged to the customer's
 * saved card, and what the customer owns follows at once; a free
 * include-by-default plan is left for a new subscription charged the same
 * way. Every refusal leaves Stripe and the purchases as they were.
 */
import { describe, expect, it } from "vitest";
import { createProject, expectPlainError, signUpUser, type Project } from "./fixtures.ts";
import { expectKnownError, type TestServer } from "./harness.ts";
import { stripePurchaseKit, withStripeStandIn } from "./payments-stripe-kit.ts";
import type { StripeStandIn } from "./stripe-stand-in.ts";

const WEBHOOK_SECRET = "whsec_platformswitchsecret01234567";

const PAYMENTS = {
  items: { credits: {} },
  productLines: { plans: { displayName: "Plans" } },
  products: {
    free: { displayName: "Free", productLineId: "plans", prices: "include-by-default", includedItems: {} },
    pro: {
      displayName: "Pro",
      productLineId: "plans",
      prices: { monthly: { USD: "12.50", interval: [1, "month"] } },
      includedItems: { credits: { quantity: 5, expires: "when-purchase-expires" } },
    },
    business: {
      displayName: "Business",
      productLineId: "plans",
      prices: { monthly: { USD: "30", interval: [1, "month"] }, yearly: { USD: "300", interval: [1, "year"] }, once: { USD: "500" } },
      includedItems: { credits: { quantity: 50, expires: "when-purchase-expires" } },
    },
    euro: { displayName: "Euro", productLineId: "plans", prices: { monthly: { EUR: "10", interval: [1, "month"] } } },
    booster: {
      displayName: "Booster",
      productLineId: "plans",
      isAddOnTo: { pro: true },
      prices: { monthly: { USD: "1", interval: [1, "month"] } },
    },
    lifetime: { displayName: "Lifetime", prices: { once: { USD: "50" } } },
    teamPlan: {
      displayName: "Team plan",
      customerType: "team",
      productLineId: "plans",
      prices: { monthly: { USD: "5", interval: [1, "month"] } },
    },
  },
};

let stripe: StripeStandIn;
let server: TestServer;
const kit = stripePurchaseKit({ server: () => server, stripe: () => stripe, payments: PAYMENTS, webhookSecret: WEBHOOK_SECRET });

withStripeStandIn(WEBHOOK_SECRET, (started) => ({ stripe, server } = started));

/** A user who bought Pro through the purchase page and paid its first month. */
const proSubscriber = (project: Project, accountId: string) => kit.paidSubscriber(project, accountId, "pro", "monthly");

/** The user's Stripe customer on the stand-in, given a saved card. */
function saveCard(userId: string): string {
  const customer = [...stripe.customers.values()].find((c) => c.json.metadata.latchkey_customer_id === userId)!;
  return stripe.saveDefaultCard(customer.json.id);
}

const switchAs = (as: Project["server"], userId: string, body: Record<string, unknown>, type = "user") =>
  server.request(`/payments/products/${type}/${userId}/switch`, { method: "POST", as, body });

async function ownedIds(project: Project, userId: string): Promise<(string | null)[]> {
  const res = await server.request(`/payments/products/user/${userId}`, { as: project.server });
  expect(res.status, res.text).toBe(200);
  return (res.body.items as { id: string | null }[]).map((item) => item.id);
}

describe("switching a subscription", () => {
  it("moves the Stripe subscription to the new price on the saved card; the customer owns the new plan from now", async () => {
    const { project, accountId } = await kit.connectedProject();
    const { user, subscriptionId } = await proSubscriber(project, accountId);
    expect(await kit.quantity(project, user.userId, "credits")).toBe(5);
    const card = saveCard(user.userId);

    const before = stripe.received.length;
    const client = user.as;
    const res = await switchAs(client, user.userId, { from_product_id: "pro", to_product_id: "business" });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ success: true });

    const update = stripe.received.slice(before).find((r) => r.method === "POST" && r.path === `/v1/subscriptions/${subscriptionId}`)!;
    expect(update.form).toMatchObject({
      "items[0][price_data][unit_amount]": "3000",
      "items[0][price_data][recurring][interval]": "month",
      "items[0][quantity]": "1",
      default_payment_method: card,
      payment_behavior: "error_if_incomplete",
      "metadata[latchkey_product_id]": "business",
    });
    expect(update.form["items[0][id]"]).toMatch(/^si_/);

    expect(await ownedIds(project, user.userId)).toEqual(["business"]);
    // Pro's credits ended with it; Business's start now.
    expect(await kit.quantity(project, user.userId, "credits")).toBe(50);
    const purchases = await kit.purchasesOf(project, user.userId);
    expect(purchases.filter((p) => p.endedAt === null).map((p) => [p.productId, p.stripeId])).toEqual([["business", subscriptionId]]);

    // Stripe's next renewal reaches the new purchase.
    const start = Math.floor(server.clock.now() / 1000) + 30 * 86400;
    expect((await kit.deliver(kit.invoicePaid(subscriptionId, start, start + 30 * 86400, accountId))).status).toBe(200);
    const renewed = (await kit.purchasesOf(project, user.userId)).find((p) => p.stripeId === subscriptionId)!;
    expect(renewed).toMatchObject({ productId: "business", currentPeriodStart: new Date(start * 1000) });
  });

  it("a subscription cancelled at its period's end stays cancelled after the switch", async () => {
    const { project, accountId } = await kit.connectedProject();
    const { user, subscriptionId } = await proSubscriber(project, accountId);
    saveCard(user.userId);
    stripe.subscriptions.get(subscriptionId)!.json.cancel_at_period_end = true;
    const cancelled = kit.subscriptionEvent("customer.subscription.updated", subscriptionId, { status: "active" }, accountId);
    expect((await kit.deliver(cancelled)).status).toBe(200);
    const res = await switchAs(project.server, user.userId, { from_product_id: "pro", to_product_id: "business" });
    expect(res.status, res.text).toBe(200);
    const switched = (await kit.purchasesOf(project, user.userId)).find((p) => p.stripeId === subscriptionId)!;
    expect(switched).toMatchObject({ productId: "business", cancelAtPeriodEnd: true, endedAt: switched.currentPeriodEnd });
    expect(switched.endedAt).not.toBeNull();
  });

  it("takes the price and quantity asked for", async () => {
    const { project, accountId } = await kit.connectedProject();
    await kit.configure(project, { "products.business.stackable": true });
    const { user, subscriptionId } = await proSubscriber(project, accountId);
    saveCard(user.userId);
    const before = stripe.received.length;
    const res = await switchAs(project.server, user.userId, {
      from_product_id: "pro",
      to_product_id: "business",
      price_id: "yearly",
      quantity: 3,
    });
    expect(res.status, res.text).toBe(200);
    const update = stripe.received.slice(before).find((r) => r.path === `/v1/subscriptions/${subscriptionId}` && r.method === "POST")!;
    expect(update.form).toMatchObject({
      "items[0][price_data][unit_amount]": "30000",
      "items[0][price_data][recurring][interval]": "year",
      "items[0][quantity]": "3",
    });
    expect(await kit.quantity(project, user.userId, "credits")).toBe(150);
  });

  it("from a free include-by-default plan, charges a new subscription to the saved card", async () => {
    const { project, accountId } = await kit.connectedProject();
    const user = await signUpUser(server, project);
    // A one-time purchase made the user's Stripe customer; the card is saved on it.
    const { res: bought } = await kit.startPurchase(project, user.userId, "lifetime", "once");
    expect(bought.status).toBe(200);
    const card = saveCard(user.userId);
    expect(await ownedIds(project, user.userId)).toEqual(["free"]);

    const before = stripe.received.length;
    const res = await switchAs(project.server, user.userId, { from_product_id: "free", to_product_id: "pro" });
    expect(res.status, res.text).toBe(200);
    const created = stripe.received.slice(before).find((r) => r.method === "POST" && r.path === "/v1/subscriptions")!;
    expect(created.form).toMatchObject({
      payment_behavior: "error_if_incomplete",
      default_payment_method: card,
      "items[0][price_data][unit_amount]": "1250",
    });
    expect(await ownedIds(project, user.userId)).toEqual(["pro"]);
    expect(await kit.quantity(project, user.userId, "credits")).toBe(5);
    // Stripe's event about the subscription it made grants nothing more.
    const sub = [...stripe.subscriptions.values()].find((s) => s.json.metadata.latchkey_customer_id === user.userId)!.json;
    const start = Math.floor(server.clock.now() / 1000);
    expect((await kit.deliver(kit.invoicePaid(sub.id, start, start + 30 * 86400, accountId))).status).toBe(200);
    expect((await kit.purchasesOf(project, user.userId)).filter((p) => p.endedAt === null)).toHaveLength(1);
  });
});

describe("refused switches change nothing", () => {
  async function expectUnchanged(project: Project, userId: string, run: () => Promise<void>) {
    const purchases = await kit.purchasesOf(project, userId);
    const before = stripe.received.length;
    await run();
    expect(stripe.received.slice(before).filter((r) => r.method === "POST")).toEqual([]);
    expect(await kit.purchasesOf(project, userId)).toEqual(purchases);
  }

  it("without a saved card: DEFAULT_PAYMENT_METHOD_REQUIRED", async () => {
    const { project, accountId } = await kit.connectedProject();
    const { user } = await proSubscriber(project, accountId);
    await expectUnchanged(project, user.userId, async () => {
      const res = await switchAs(project.server, user.userId, { from_product_id: "pro", to_product_id: "business" });
      expectKnownError(res, "DEFAULT_PAYMENT_METHOD_REQUIRED", 400);
      expect(res.body.details).toEqual({ customer_type: "user", customer_id: user.userId });
    });
    // A customer Stripe never saw has no card either.
    const stranger = await signUpUser(server, project);
    const res = await switchAs(project.server, stranger.userId, { from_product_id: "free", to_product_id: "pro" });
    expectKnownError(res, "DEFAULT_PAYMENT_METHOD_REQUIRED", 400);
  });

  it("a declined card: 400 with Stripe's words, the old plan kept", async () => {
    const { project, accountId } = await kit.connectedProject();
    const { user } = await proSubscriber(project, accountId);
    saveCard(user.userId);
    stripe.declineCards = true;
    try {
      const purchases = await kit.purchasesOf(project, user.userId);
      const res = await switchAs(project.server, user.userId, { from_product_id: "pro", to_product_id: "business" });
      expectPlainError(res, 400, /card was declined: Your card was declined\./);
      expect(await kit.purchasesOf(project, user.userId)).toEqual(purchases);
      expect(await ownedIds(project, user.userId)).toEqual(["pro"]);
    } finally {
      stripe.declineCards = false;
    }
  });

  it("refuses, in the API's order, what cannot be switched", async () => {
    const { project, accountId } = await kit.connectedProject();
    const { user } = await proSubscriber(project, accountId);
    saveCard(user.userId);
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ from_product_id: "pro", to_product_id: "nope" }, /^Product not found\.$/],
      [{ from_product_id: "pro", to_product_id: "teamPlan" }, /^Product customer type does not match\.$/],
      [{ from_product_id: "pro", to_product_id: "lifetime" }, /^Products must be in the same product line to switch\.$/],
      [{ from_product_id: "pro", to_product_id: "pro" }, /^Product is already active\.$/],
      [{ from_product_id: "pro", to_product_id: "booster" }, /^Add-on products cannot be selected for plan switching\.$/],
      [{ from_product_id: "pro", to_product_id: "free" }, /^Include-by-default products cannot be selected for plan switching\.$/],
      [{ from_product_id: "business", to_product_id: "pro" }, /^This subscription cannot be switched\.$/],
      [{ from_product_id: "pro", to_product_id: "business", price_id: "once" }, /^Price not found for target product\.$/],
      [{ from_product_id: "pro", to_product_id: "euro" }, /^Target price must include a USD amount\.$/],
      [{ from_product_id: "pro", to_product_id: "business", quantity: 2 }, /^This product is not stackable; quantity must be 1$/],
    ];
    await expectUnchanged(project, user.userId, async () => {
      for (const [body, message] of cases) expectPlainError(await switchAs(project.server, user.userId, body), 400, message);
    });
  });

  it("a subscription not paid through Stripe (granted, or test mode) cannot be switched", async () => {
    const { project } = await kit.connectedProject();
    const user = await signUpUser(server, project);
    const grant = await server.request(`/payments/products/user/${user.userId}`, {
      method: "POST",
      as: project.server,
      body: { product_id: "pro" },
    });
    expect(grant.status, grant.text).toBe(200);
    await expectUnchanged(project, user.userId, async () => {
      const res = await switchAs(project.server, user.userId, { from_product_id: "pro", to_product_id: "business" });
      expectPlainError(res, 400, /^This subscription cannot be switched\.$/);
    });
  });

  it("access: a client only for itself; custom customers never; blocked purchases first", async () => {
    const { project, accountId } = await kit.connectedProject();
    const { user } = await proSubscriber(project, accountId);
    const other = await signUpUser(server, project);
    const body = { from_product_id: "pro", to_product_id: "business" };
    await expectUnchanged(project, user.userId, async () => {
      expectPlainError(await switchAs(other.as, user.userId, body), 403, /^Clients can only manage their own subscriptions\.$/);
      expectKnownError(await switchAs(project.client, user.userId, body), "USER_AUTHENTICATION_REQUIRED");
      expectKnownError(await switchAs(project.server, user.userId, body, "custom"), "SCHEMA_ERROR", 400);
      expectKnownError(await switchAs(project.server, "5b3c1ed4-7f8e-4d0a-9c1b-2a3d4e5f6a7b", body), "USER_NOT_FOUND", 404);
      await kit.configure(project, { blockNewPurchases: true });
      expectKnownError(await switchAs(project.server, user.userId, body), "NEW_PURCHASES_BLOCKED", 403);
    });
  });

  it("a project without a Stripe account", async () => {
    const project = await createProject(server);
    await kit.configure(project, { ...PAYMENTS, testMode: false });
    const user = await signUpUser(server, project);
    const res = await switchAs(project.server, user.userId, { from_product_id: "free", to_product_id: "pro" });
    expectPlainError(res, 400, /^Payments are not set up in this Stack Auth project\./);
  });
});
