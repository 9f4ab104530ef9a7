/**
 * Stripe purchases in the currencies a price carries, against the Stripe
 * stand-in: a price without USD is charged in its own currency (in that
 * currency's minor units: yen have none), a price in several currencies in
 * the one the buyer chose (USD when none was), and a currency the price
 * lacks is refused with nothing changed. The purchase keeps the currency:
 * the transactions list shows it, refunds give back in it, and a
 * subscription switch charges in it.
 */
import { transactionsPageJson } from "@latchkey/shared";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { paymentStripeCheckouts } from "../src/capabilities/payments/account-schema.ts";
import { paymentRefunds } from "../src/capabilities/payments/schema.ts";
import { createProject, signUpUser, type Project } from "./fixtures.ts";
import { expectKnownError, type TestServer } from "./harness.ts";
import { stripePurchaseKit, withStripeStandIn } from "./payments-stripe-kit.ts";
import { refundCreatedEvent, stripeEvent, type StripeStandIn } from "./stripe-stand-in.ts";

const WEBHOOK_SECRET = "whsec_platformcurrencysecret012345";

const PAYMENTS = {
  productLines: { plans: { displayName: "Plans" } },
  products: {
    croissant: { displayName: "Croissant", prices: { once: { EUR: "10" } } },
    sushi: { displayName: "Sushi", stackable: true, prices: { once: { JPY: "1500" } } },
    world: { displayName: "World", stackable: true, prices: { once: { USD: "12.50", EUR: "11", GBP: "9.99" } } },
    euroPlan: { displayName: "Euro plan", productLineId: "plans", prices: { monthly: { EUR: "10", interval: [1, "month"] } } },
    dollarPlan: { displayName: "Dollar plan", productLineId: "plans", prices: { monthly: { USD: "12", interval: [1, "month"] } } },
    bothPlan: {
      displayName: "Both plan",
      productLineId: "plans",
      prices: { monthly: { USD: "25", EUR: "22.50", interval: [1, "month"] } },
    },
  },
};

let stripe: StripeStandIn;
let server: TestServer;
const kit = stripePurchaseKit({ server: () => server, stripe: () => stripe, payments: PAYMENTS, webhookSecret: WEBHOOK_SECRET });

withStripeStandIn(WEBHOOK_SECRET, (started) => ({ stripe, server } = started));

/** Starts paying for `productId` at `priceId` (in `currency`, when given); answers the session and what it asked of Stripe. */
async function buy(project: Project, userId: string, productId: string, priceId: string, extra: Record<string, unknown> = {}) {
  const fullCode = await kit.purchaseCode(project, userId, productId);
  const before = stripe.received.length;
  const res = await kit.session({ full_code: fullCode, price_id: priceId, quantity: 1, ...extra });
  return { res, fullCode, calls: stripe.received.slice(before) };
}

/** Pays a one-time purchase the user started (its payment intent succeeded); answers the intent. */
async function paid(accountId: string, userId: string) {
  const intent = [...stripe.paymentIntents.values()].find((i) => i.json.metadata.latchkey_customer_id === userId)!.json;
  expect((await kit.deliver(stripeEvent("payment_intent.succeeded", { ...intent, status: "succeeded" }, accountId))).status).toBe(200);
  return intent;
}

const intentCall = (calls: StripeStandIn["received"]) => calls.find((r) => r.method === "POST" && r.path === "/v1/payment_intents")!;

async function transactions(project: Project) {
  const res = await server.request("/internal/payments/transactions", { as: project.admin });
  expect(res.status, res.text).toBe(200);
  return transactionsPageJson.parse(res.body).transactions;
}

const refund = (project: Project, body: Record<string, unknown>) =>
  server.request("/internal/payments/transactions/refund", { method: "POST", as: project.admin, body });
const refundsOf = (project: Project) =>
  server.instance.services.db.select().from(paymentRefunds).where(eq(paymentRefunds.projectId, project.id));
const checkoutsOf = (project: Project) =>
  server.instance.services.db.select().from(paymentStripeCheckouts).where(eq(paymentStripeCheckouts.projectId, project.id));

describe("buying in a price's currency", () => {
  it("a EUR-only price is charged in euros; the purchase and its transaction show EUR", async () => {
    const { project, accountId } = await kit.connectedProject();
    const user = await signUpUser(server, project);
    const { res, calls } = await buy(project, user.userId, "croissant", "once");
    expect(res.status, res.text).toBe(200);
    expect(intentCall(calls).form).toMatchObject({ currency: "eur", amount: "1000" });
    await paid(accountId, user.userId);

    const [purchase] = await kit.purchasesOf(project, user.userId);
    expect(purchase).toMatchObject({ productId: "croissant", currency: "EUR", source: "stripe" });
    const [listed] = await transactions(project);
    expect(listed!.entries[1]).toMatchObject({ type: "money_transfer", charged_amount: { EUR: "10" }, net_amount: { EUR: "10" } });
  });

  it("a JPY price is charged in whole yen (a zero-decimal currency)", async () => {
    const { project, accountId } = await kit.connectedProject();
    const user = await signUpUser(server, project);
    const { res, calls } = await buy(project, user.userId, "sushi", "once", { quantity: 2 });
    expect(res.status, res.text).toBe(200);
    expect(intentCall(calls).form).toMatchObject({ currency: "jpy", amount: "3000" });
    await paid(accountId, user.userId);
    const [listed] = await transactions(project);
    expect(listed!.entries[1]).toMatchObject({ charged_amount: { JPY: "3000" }, net_amount: { JPY: "3000" } });
  });

  it("a price in several currencies: the chosen one is charged; without a choice, USD as before", async () => {
    const { project, accountId } = await kit.connectedProject();
    for (const [currency, stripeCurrency, amount] of [
      ["EUR", "eur", "1100"],
      ["GBP", "gbp", "999"],
      [undefined, "usd", "1250"],
    ] as const) {
      const user = await signUpUser(server, project);
      const { res, calls } = await buy(project, user.userId, "world", "once", currency ? { currency } : {});
      expect(res.status, res.text).toBe(200);
      expect(intentCall(calls).form).toMatchObject({ currency: stripeCurrency, amount });
      await paid(accountId, user.userId);
      expect((await kit.purchasesOf(project, user.userId))[0]!.currency).toBe(currency ?? "USD");
    }
    // The dollar purchase lists the price's amounts, as every USD purchase always has; the others only their own.
    const money = (await transactions(project)).map((t) => {
      const entry = t.entries[1];
      return entry?.type === "money_transfer" ? [entry.charged_amount, entry.net_amount] : null;
    });
    expect(money).toEqual([
      [{ USD: "12.5", EUR: "11", GBP: "9.99" }, { USD: "12.5" }],
      [{ GBP: "9.99" }, { GBP: "9.99" }],
      [{ EUR: "11" }, { EUR: "11" }],
    ]);
  });

  it("a subscription in euros is made in euros", async () => {
    const { project } = await kit.connectedProject();
    const user = await signUpUser(server, project);
    const { res, calls } = await buy(project, user.userId, "euroPlan", "monthly");
    expect(res.status, res.text).toBe(200);
    const made = calls.find((r) => r.method === "POST" && r.path === "/v1/subscriptions")!;
    expect(made.form).toMatchObject({ "items[0][price_data][currency]": "eur", "items[0][price_data][unit_amount]": "1000" });
  });

  it("a currency the price lacks is refused with a schema error naming it; the code, Stripe and the purchases are untouched", async () => {
    const { project } = await kit.connectedProject();
    const user = await signUpUser(server, project);
    const fullCode = await kit.purchaseCode(project, user.userId, "world");
    const before = stripe.received.length;
    const lacking = await kit.session({ full_code: fullCode, price_id: "once", currency: "JPY" });
    expectKnownError(lacking, "SCHEMA_ERROR", 400);
    expect(lacking.body.error).toContain("This price has no JPY amount; it can be paid in USD, EUR, GBP.");
    // Not a currency at all: refused by the request's schema.
    expectKnownError(await kit.session({ full_code: fullCode, price_id: "once", currency: "XYZ" }), "SCHEMA_ERROR", 400);
    expect(stripe.received.length).toBe(before);
    expect(await checkoutsOf(project)).toEqual([]);
    expect(await kit.purchasesOf(project, user.userId)).toEqual([]);
    // The code is still usable.
    const retry = await kit.session({ full_code: fullCode, price_id: "once", currency: "EUR" });
    expect(retry.status, retry.text).toBe(200);
  });

  it("a test-mode purchase takes the chosen currency too, and refuses one the price lacks without using the code", async () => {
    const project = await createProject(server);
    await kit.configure(project, { ...PAYMENTS, testMode: true });
    const user = await signUpUser(server, project);
    const fullCode = await kit.purchaseCode(project, user.userId, "world");
    const take = (currency: string) =>
      server.request("/internal/payments/test-mode-purchase-session", {
        method: "POST",
        body: { full_code: fullCode, price_id: "once", currency },
      });
    const refused = await take("JPY");
    expectKnownError(refused, "SCHEMA_ERROR", 400);
    expect(await kit.purchasesOf(project, user.userId)).toEqual([]);
    const taken = await take("GBP");
    expect(taken.status, taken.text).toBe(200);
    expect(await kit.purchasesOf(project, user.userId)).toMatchObject([{ productId: "world", currency: "GBP", source: "test_mode" }]);
  });
});

describe("refunds in a purchase's currency", () => {
  it("a full refund gives back the whole charge in euros; the refund transaction shows EUR", async () => {
    const { project, accountId } = await kit.connectedProject();
    const user = await signUpUser(server, project);
    await buy(project, user.userId, "croissant", "once");
    const intent = await paid(accountId, user.userId);
    const [purchase] = await kit.purchasesOf(project, user.userId);
    const entries = [{ entry_index: 0, quantity: 1, amount_usd: "0" }];

    // Amounts are named in dollars: a euro purchase cannot be refunded in part.
    const partial = await refund(project, {
      type: "one-time-purchase",
      id: purchase!.id,
      refund_entries: [{ entry_index: 0, quantity: 1, amount_usd: "5" }],
    });
    expectKnownError(partial, "SCHEMA_ERROR", 400);
    expect(partial.body.error).toContain("Refund amounts can only be specified for USD-priced purchases.");
    const mixed = await refund(project, {
      type: "one-time-purchase",
      id: purchase!.id,
      full_refund: true,
      refund_entries: [{ entry_index: 0, quantity: 1, amount_usd: "5" }],
    });
    expectKnownError(mixed, "SCHEMA_ERROR", 400);
    expect(stripe.refunds.filter((r) => r.paymentIntent === intent.id)).toEqual([]);
    expect(await refundsOf(project)).toEqual([]);

    const before = stripe.refunds.length;
    const res = await refund(project, { type: "one-time-purchase", id: purchase!.id, full_refund: true, refund_entries: entries });
    expect(res.status, res.text).toBe(200);
    expect(stripe.refunds.slice(before)).toMatchObject([{ account: accountId, paymentIntent: intent.id, amount: 1000 }]);
    expect(await refundsOf(project)).toMatchObject([{ purchaseId: purchase!.id, origin: "api", amountMinorUnits: 1000, currency: "EUR" }]);
    const [listed] = await transactions(project);
    expect(listed!.type).toBe("refund");
    expect(listed!.entries.at(-1)).toMatchObject({ type: "money_transfer", charged_amount: { EUR: "-10" }, net_amount: { EUR: "-10" } });
  });

  it("a full refund of a USD purchase gives back its dollars", async () => {
    const { project, accountId } = await kit.connectedProject();
    const user = await signUpUser(server, project);
    await buy(project, user.userId, "world", "once");
    await paid(accountId, user.userId);
    const [purchase] = await kit.purchasesOf(project, user.userId);
    const res = await refund(project, {
      type: "one-time-purchase",
      id: purchase!.id,
      full_refund: true,
      refund_entries: [{ entry_index: 0, quantity: 1, amount_usd: "0" }],
    });
    expect(res.status, res.text).toBe(200);
    expect(await refundsOf(project)).toMatchObject([{ amountMinorUnits: 1250, currency: "USD" }]);
  });

  it("a refund made in Stripe's dashboard of a yen purchase is recorded in yen", async () => {
    const { project, accountId } = await kit.connectedProject();
    const user = await signUpUser(server, project);
    await buy(project, user.userId, "sushi", "once");
    const intent = await paid(accountId, user.userId);
    const made = stripe.refundEvents.dashboardRefund(accountId, intent.id, 500);
    expect(made.currency).toBe("jpy");
    expect((await kit.deliver(refundCreatedEvent(made, accountId))).status).toBe(200);
    expect(await refundsOf(project)).toMatchObject([{ origin: "stripe", amountMinorUnits: 500, currency: "JPY" }]);
    const [listed] = await transactions(project);
    expect(listed!.entries).toMatchObject([{ type: "money_transfer", charged_amount: { JPY: "-500" }, net_amount: { JPY: "-500" } }]);
  });
});

describe("switching a subscription charged in euros", () => {
  async function euroSubscriber() {
    const { project, accountId } = await kit.connectedProject();
    const { user, subscriptionId } = await kit.paidSubscriber(project, accountId, "euroPlan", "monthly");
    const customer = [...stripe.customers.values()].find((c) => c.json.metadata.latchkey_customer_id === user.userId)!;
    stripe.saveDefaultCard(customer.json.id);
    return { project, user, subscriptionId };
  }
  const switchTo = (project: Project, userId: string, to: string) =>
    server.request(`/payments/products/user/${userId}/switch`, {
      method: "POST",
      as: project.server,
      body: { from_product_id: "euroPlan", to_product_id: to },
    });

  it("to a price without euros is refused with a 400 naming the currency; Stripe and the purchases are untouched", async () => {
    const { project, user } = await euroSubscriber();
    const purchasesBefore = await kit.purchasesOf(project, user.userId);
    const before = stripe.received.length;
    const res = await switchTo(project, user.userId, "dollarPlan");
    expect(res.status, res.text).toBe(400);
    expect(res.text).toContain("Target price must include an amount in EUR, the currency this subscription is charged in.");
    expect(stripe.received.length).toBe(before);
    expect(await kit.purchasesOf(project, user.userId)).toEqual(purchasesBefore);
  });

  it("to a price with euros charges it in euros and keeps the currency on the new purchase", async () => {
    const { project, user, subscriptionId } = await euroSubscriber();
    const before = stripe.received.length;
    const res = await switchTo(project, user.userId, "bothPlan");
    expect(res.status, res.text).toBe(200);
    const update = stripe.received.slice(before).find((r) => r.method === "POST" && r.path === `/v1/subscriptions/${subscriptionId}`)!;
    expect(update.form).toMatchObject({ "items[0][price_data][currency]": "eur", "items[0][price_data][unit_amount]": "2250" });
    const running = (await kit.purchasesOf(project, user.userId)).find((p) => p.endedAt === null)!;
    expect(running).toMatchObject({ productId: "bothPlan", currency: "EUR" });
  });
});
