/**
 * Paying for a purchase code with Stripe (WIRE-next §5.5 purchase-session)
 * against the Stripe stand-in, and the signed webhooks that say it was paid:
 * a payment intent for a one-time price, an incomplete subscription for an
 * interval price; the product (and what it includes) is granted once however
 * many events tell of the payment, and a subscription's period, cancellation
 * and end follow what Stripe reports.
 */
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { paymentPurchaseCodes, paymentStripeCheckouts, paymentStripeCustomers } from "../src/capabilities/payments/schema.ts";
import { createProject, expectPlainError, signUpUser } from "./fixtures.ts";
import { expectKnownError, type TestServer } from "./harness.ts";
import { stripePurchaseKit, withStripeStandIn } from "./payments-stripe-kit.ts";
import { stripeEvent, type StripeStandIn } from "./stripe-stand-in.ts";

const WEBHOOK_SECRET = "whsec_platformpurchasesecret0123";
const NOT_SET_UP =
  "Payments are not set up in this Stack Auth project. Please go to the Stack Auth dashboard and complete the Payments onboarding.";

const PAYMENTS = {
  items: { credits: {}, seats: {} },
  products: {
    pro: {
      displayName: "Pro",
      prices: { monthly: { USD: "12.50", interval: [1, "month"] } },
      includedItems: { credits: { quantity: 5, repeat: [1, "month"], expires: "when-repeated" } },
    },
    lifetime: { displayName: "Lifetime", prices: { once: { USD: "50" } }, includedItems: { seats: { quantity: 2, expires: "never" } } },
  },
};

let stripe: StripeStandIn;
let server: TestServer;

withStripeStandIn(WEBHOOK_SECRET, (started) => ({ stripe, server } = started));

const {
  configure,
  connectedProject,
  purchaseCode,
  session,
  deliver,
  purchasesOf,
  quantity,
  startPurchase,
  invoicePaid,
  subscriptionEvent,
} = stripePurchaseKit({ server: () => server, stripe: () => stripe, payments: PAYMENTS, webhookSecret: WEBHOOK_SECRET });

describe("purchase-session", () => {
  it("makes a payment intent for a one-time price on the connected account; its success grants the product once", async () => {
    const { project, accountId } = await connectedProject();
    const user = await signUpUser(server, project);
    const { res, fullCode, calls } = await startPurchase(project, user.userId, "lifetime", "once");
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual(["POST /v1/customers", "POST /v1/payment_intents"]);
    expect(calls.every((c) => c.apiKey === stripe.platformKey && c.stripeAccount === accountId)).toBe(true);
    const intentForm = calls[1]!.form;
    expect(intentForm).toMatchObject({
      amount: "5000",
      currency: "usd",
      "metadata[latchkey_project_id]": project.id,
      "metadata[latchkey_customer_type]": "user",
      "metadata[latchkey_customer_id]": user.userId,
      "metadata[latchkey_product_id]": "lifetime",
      "metadata[latchkey_price_id]": "once",
      "metadata[latchkey_quantity]": "1",
      "metadata[latchkey_purchase_code_id]": expect.any(String),
    });
    const intent = [...stripe.paymentIntents.values()].find((i) => i.json.metadata.latchkey_customer_id === user.userId)!;
    expect(res.body).toEqual({ client_secret: intent.json.client_secret });
    // The code is used up once Stripe has made the payment intent, as the reference does.
    expectKnownError(await session({ full_code: fullCode, price_id: "once", quantity: 1 }), "VERIFICATION_CODE_NOT_FOUND", 404);

    // Nothing is owned until Stripe says the payment went through.
    expect(await purchasesOf(project, user.userId)).toEqual([]);
    const succeeded = stripeEvent("payment_intent.succeeded", { ...intent.json, status: "succeeded" }, accountId);
    const first = await deliver(succeeded);
    expect(first.status, first.text).toBe(200);
    expect((await deliver(succeeded)).status).toBe(200);
    // Another event about the same payment intent (Stripe may send one with a new id) grants nothing more.
    const again = stripeEvent("payment_intent.succeeded", { ...intent.json, status: "succeeded" }, accountId);
    expect((await deliver(again)).status).toBe(200);
    const purchases = await purchasesOf(project, user.userId);
    expect(purchases).toHaveLength(1);
    expect(purchases[0]).toMatchObject({
      source: "stripe",
      kind: "one_time",
      productId: "lifetime",
      priceId: "once",
      stripeId: intent.json.id,
    });
    expect(await quantity(project, user.userId, "seats")).toBe(2);
  });

  it("reuses the customer's Stripe customer on a second purchase", async () => {
    const { project } = await connectedProject();
    const user = await signUpUser(server, project);
    await startPurchase(project, user.userId, "lifetime", "once");
    const { calls } = await startPurchase(project, user.userId, "pro", "monthly");
    expect(calls.map((c) => c.path)).toEqual(["/v1/products", "/v1/subscriptions"]);
    const customers = await server.instance.services.db
      .select()
      .from(paymentStripeCustomers)
      .where(eq(paymentStripeCustomers.projectId, project.id));
    expect(customers).toHaveLength(1);
    expect(calls[1]!.form.customer).toBe(customers[0]!.stripeCustomerId);
  });

  it("grants once when two deliveries of the success arrive at the same time", async () => {
    const { project, accountId } = await connectedProject();
    const user = await signUpUser(server, project);
    await startPurchase(project, user.userId, "lifetime", "once");
    const intent = [...stripe.paymentIntents.values()].find((i) => i.json.metadata.latchkey_customer_id === user.userId)!;
    const a = stripeEvent("payment_intent.succeeded", intent.json, accountId);
    const b = stripeEvent("payment_intent.succeeded", intent.json, accountId);
    const answers = await Promise.all([deliver(a), deliver(a), deliver(b)]);
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(await purchasesOf(project, user.userId)).toHaveLength(1);
    expect(await quantity(project, user.userId, "seats")).toBe(2);
  });

  it("makes an incomplete subscription for an interval price; paid, renewed, cancelled and ended as Stripe says", async () => {
    const { project, accountId } = await connectedProject();
    const user = await signUpUser(server, project);
    const { res, calls } = await startPurchase(project, user.userId, "pro", "monthly");
    expect(calls.map((c) => c.path)).toEqual(["/v1/customers", "/v1/products", "/v1/subscriptions"]);
    expect(calls[2]!.form).toMatchObject({
      payment_behavior: "default_incomplete",
      "expand[0]": "latest_invoice.confirmation_secret",
      "items[0][price_data][unit_amount]": "1250",
      "items[0][price_data][recurring][interval]": "month",
      "items[0][quantity]": "1",
      "metadata[latchkey_product_id]": "pro",
      "metadata[latchkey_price_id]": "monthly",
    });
    expect(res.body).toEqual({ client_secret: expect.stringMatching(/_secret_/) });
    const sub = [...stripe.subscriptions.values()].find((s) => s.json.metadata.latchkey_customer_id === user.userId)!.json;

    // Made incomplete: not owned until its first invoice is paid.
    expect((await deliver(subscriptionEvent("customer.subscription.created", sub.id, {}, accountId))).status).toBe(200);
    expect(await purchasesOf(project, user.userId)).toEqual([]);

    const start = Math.floor(server.clock.now() / 1000);
    const month = 30 * 86400;
    const paid = invoicePaid(sub.id, start, start + month, accountId);
    const active = subscriptionEvent("customer.subscription.updated", sub.id, { status: "active" }, accountId);
    // Both tell of the first payment, at the same time: one purchase.
    const answers = await Promise.all([deliver(paid), deliver(active), deliver(paid)]);
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200]);
    const granted = await purchasesOf(project, user.userId);
    expect(granted).toHaveLength(1);
    let purchase = granted[0];
    expect(purchase).toMatchObject({ source: "stripe", kind: "subscription", stripeId: sub.id, endedAt: null, cancelAtPeriodEnd: false });
    expect(await quantity(project, user.userId, "credits")).toBe(5);

    // Renewal: the next period's invoice moves the period.
    const renewed = invoicePaid(sub.id, start + month, start + 2 * month, accountId);
    expect((await deliver(renewed)).status).toBe(200);
    [purchase] = await purchasesOf(project, user.userId);
    expect(purchase!.currentPeriodStart).toEqual(new Date((start + month) * 1000));
    expect(purchase!.currentPeriodEnd).toEqual(new Date((start + 2 * month) * 1000));
    // A late event about the first period does not move it back.
    expect((await deliver(invoicePaid(sub.id, start, start + month, accountId))).status).toBe(200);
    [purchase] = await purchasesOf(project, user.userId);
    expect(purchase!.currentPeriodStart).toEqual(new Date((start + month) * 1000));

    // Cancelled at the period's end, then ended by Stripe.
    const cancelAt = subscriptionEvent(
      "customer.subscription.updated",
      sub.id,
      { status: "active", cancel_at_period_end: true },
      accountId,
    );
    expect((await deliver(cancelAt)).status).toBe(200);
    [purchase] = await purchasesOf(project, user.userId);
    expect(purchase).toMatchObject({ cancelAtPeriodEnd: true });
    // Ended now (Stripe's seconds): what it included is gone at once.
    const endedAt = start;
    const deleted = subscriptionEvent(
      "customer.subscription.deleted",
      sub.id,
      { status: "canceled", cancel_at_period_end: true, ended_at: endedAt },
      accountId,
    );
    expect((await deliver(deleted)).status).toBe(200);
    [purchase] = await purchasesOf(project, user.userId);
    expect(purchase!.endedAt).toEqual(new Date(endedAt * 1000));
    expect(purchase).toMatchObject({ cancelAtPeriodEnd: true, currentPeriodStart: new Date((start + month) * 1000) });
    expect(await quantity(project, user.userId, "credits")).toBe(0);
  });

  it("pays with a project's own key, and applies its events at its own endpoint", async () => {
    const project = await createProject(server);
    await configure(project, { ...PAYMENTS, testMode: false });
    const { secretKey } = stripe.addOwnAccount({ charges_enabled: true });
    const ownSecret = "whsec_ownpurchasesecret42";
    const set = await server.request("/internal/payments/stripe/own-key", {
      method: "POST",
      as: project.admin,
      body: { secret_key: secretKey, webhook_secret: ownSecret },
    });
    expect(set.status, set.text).toBe(200);
    const user = await signUpUser(server, project);
    const { calls } = await startPurchase(project, user.userId, "lifetime", "once");
    expect(calls.every((c) => c.apiKey === secretKey && c.stripeAccount === null)).toBe(true);
    const intent = [...stripe.paymentIntents.values()].find((i) => i.json.metadata.latchkey_customer_id === user.userId)!;
    const res = await deliver(
      stripeEvent("payment_intent.succeeded", intent.json),
      `/integrations/stripe/webhooks/${project.id}`,
      ownSecret,
    );
    expect(res.status, res.text).toBe(200);
    expect(await quantity(project, user.userId, "seats")).toBe(2);
  });

  it("forgets a deleted user's Stripe customer and sessions: a late success grants nothing", async () => {
    const { project, accountId } = await connectedProject();
    const user = await signUpUser(server, project);
    await startPurchase(project, user.userId, "lifetime", "once");
    const intent = [...stripe.paymentIntents.values()].find((i) => i.json.metadata.latchkey_customer_id === user.userId)!;
    const deleted = await server.request(`/users/${user.userId}`, { method: "DELETE", as: project.server });
    expect(deleted.status, deleted.text).toBe(200);
    const db = server.instance.services.db;
    expect(await db.select().from(paymentStripeCustomers).where(eq(paymentStripeCustomers.projectId, project.id))).toEqual([]);
    expect(await db.select().from(paymentStripeCheckouts).where(eq(paymentStripeCheckouts.projectId, project.id))).toEqual([]);
    expect((await deliver(stripeEvent("payment_intent.succeeded", intent.json, accountId))).status).toBe(200);
    expect(await purchasesOf(project, user.userId)).toEqual([]);
  });

  it("refuses an unknown code (404) and a project without a Stripe account (the §5.2 400), making nothing", async () => {
    const { project } = await connectedProject();
    expectKnownError(
      await session({ full_code: `${project.id}_${"x".repeat(45)}`, price_id: "once", quantity: 1 }),
      "VERIFICATION_CODE_NOT_FOUND",
      404,
    );
    expectKnownError(await session({ full_code: "nonsense", price_id: "once", quantity: 1 }), "VERIFICATION_CODE_NOT_FOUND", 404);

    const testOnly = await createProject(server);
    await configure(testOnly, PAYMENTS);
    const user = await signUpUser(server, testOnly);
    const fullCode = await purchaseCode(testOnly, user.userId, "lifetime");
    const before = stripe.received.length;
    expectPlainError(await session({ full_code: fullCode, price_id: "once", quantity: 1 }), 400);
    expect((await session({ full_code: fullCode, price_id: "once", quantity: 1 })).text).toBe(NOT_SET_UP);
    expect(stripe.received.length).toBe(before);
    const [code] = await server.instance.services.db
      .select()
      .from(paymentPurchaseCodes)
      .where(eq(paymentPurchaseCodes.projectId, testOnly.id));
    expect(code!.usedAt).toBeNull();
  });

  it("refuses an unknown price and a second copy of an owned product before calling Stripe", async () => {
    const { project, accountId } = await connectedProject();
    const user = await signUpUser(server, project);
    const fullCode = await purchaseCode(project, user.userId, "lifetime");
    const before = stripe.received.length;
    expectPlainError(
      await session({ full_code: fullCode, price_id: "yearly", quantity: 1 }),
      400,
      /^Price not found on product associated with this purchase code$/,
    );
    expectPlainError(
      await session({ full_code: fullCode, price_id: "once", quantity: 2 }),
      400,
      /^This product is not stackable; quantity must be 1$/,
    );
    expect(stripe.received.length).toBe(before);

    await startPurchase(project, user.userId, "lifetime", "once");
    const intent = [...stripe.paymentIntents.values()].find((i) => i.json.metadata.latchkey_customer_id === user.userId)!;
    expect((await deliver(stripeEvent("payment_intent.succeeded", intent.json, accountId))).status).toBe(200);
    const another = await purchaseCode(project, user.userId, "pro");
    expect((await session({ full_code: another, price_id: "monthly", quantity: 1 })).status).toBe(200);
    // The first code was never used: it is still there, and now refused as already owned.
    expectKnownError(await session({ full_code: fullCode, price_id: "once", quantity: 1 }), "PRODUCT_ALREADY_GRANTED", 400);
  });
});
