/**
 * Refunding money of purchases paid through Stripe (POST
 * /internal/payments/transactions/refund) against the Stripe stand-in: a
 * one-time purchase's payment intent, a subscription's latest invoice's
 * payment, each refunded once on the project's connected account (a retry is
 * the same refund at Stripe: one idempotency key per purchase); when Stripe
 * fails or has no such payment, nothing is recorded and the purchase stays.
 */
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { paymentRefunds } from "../src/capabilities/payments/schema.ts";
import { expectPlainError, signUpUser, type EndUser, type Project } from "./fixtures.ts";
import { expectKnownError, type TestServer } from "./harness.ts";
import { stripePurchaseKit, withStripeStandIn } from "./payments-stripe-kit.ts";
import { stripeEvent, type StripeStandIn } from "./stripe-stand-in.ts";

const WEBHOOK_SECRET = "whsec_platformrefundsecret0123456";

const PAYMENTS = {
  items: { seats: {} },
  products: {
    pro: { displayName: "Pro", prices: { monthly: { USD: "12.50", interval: [1, "month"] } } },
    lifetime: { displayName: "Lifetime", prices: { once: { USD: "50" } }, includedItems: { seats: { quantity: 2, expires: "never" } } },
  },
};

let stripe: StripeStandIn;
let server: TestServer;
const kit = stripePurchaseKit({ server: () => server, stripe: () => stripe, payments: PAYMENTS, webhookSecret: WEBHOOK_SECRET });

withStripeStandIn(WEBHOOK_SECRET, (started) => ({ stripe, server } = started));

/** A user who paid for Lifetime (the payment intent's success arrived); answers the purchase and the intent's id. */
async function lifetimeBuyer(project: Project, accountId: string) {
  const user = await signUpUser(server, project);
  await kit.startPurchase(project, user.userId, "lifetime", "once");
  const intent = [...stripe.paymentIntents.values()].find((i) => i.json.metadata.latchkey_customer_id === user.userId)!.json;
  expect((await kit.deliver(stripeEvent("payment_intent.succeeded", { ...intent, status: "succeeded" }, accountId))).status).toBe(200);
  const [purchase] = await kit.purchasesOf(project, user.userId);
  return { user, purchaseId: purchase!.id, intentId: intent.id };
}

const refund = (project: Project, body: Record<string, unknown>) =>
  server.request("/internal/payments/transactions/refund", { method: "POST", as: project.admin, body });
const refundsOf = (project: Project) =>
  server.instance.services.db.select().from(paymentRefunds).where(eq(paymentRefunds.projectId, project.id));
const ownedCount = async (project: Project, user: EndUser) =>
  ((await server.request(`/payments/products/user/${user.userId}`, { as: project.server })).body.items as unknown[]).length;

describe("refunding a Stripe payment", () => {
  it("a one-time purchase: its payment intent is refunded the amount asked, once; the purchase ends", async () => {
    const { project, accountId } = await kit.connectedProject();
    const { user, purchaseId, intentId } = await lifetimeBuyer(project, accountId);
    const body = { type: "one-time-purchase", id: purchaseId, refund_entries: [{ entry_index: 0, quantity: 1, amount_usd: "20" }] };
    const before = stripe.refunds.length;
    const res = await refund(project, body);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ success: true });
    expect(stripe.refunds.slice(before)).toEqual([
      {
        account: accountId,
        paymentIntent: intentId,
        amount: 2000,
        metadata: { latchkey_project_id: project.id, latchkey_purchase_id: purchaseId },
      },
    ]);
    expect(await refundsOf(project)).toMatchObject([{ purchaseId, amountMinorUnits: 2000 }]);
    expect(await ownedCount(project, user)).toBe(0);

    // Asked again: refused before Stripe is called.
    expectKnownError(await refund(project, body), "ONE_TIME_PURCHASE_ALREADY_REFUNDED", 400);
    expect(stripe.refunds.length).toBe(before + 1);
  });

  it("two refunds of one purchase at once, with the same or other amounts: one refund at Stripe, one recorded", async () => {
    const { project, accountId } = await kit.connectedProject();
    for (const amounts of [
      ["20", "20"],
      ["20", "30"],
    ]) {
      const { purchaseId } = await lifetimeBuyer(project, accountId);
      const before = stripe.refunds.length;
      const answers = await Promise.all(
        amounts.map((amount) =>
          refund(project, {
            type: "one-time-purchase",
            id: purchaseId,
            refund_entries: [{ entry_index: 0, quantity: 1, amount_usd: amount }],
          }),
        ),
      );
      expect(answers.map((r) => r.status).sort()).toEqual([200, 400]);
      expectKnownError(
        answers.find((r) => r.status === 400)!,
        "ONE_TIME_PURCHASE_ALREADY_REFUNDED",
        400,
      );
      expect(stripe.refunds.length).toBe(before + 1);
      const recorded = (await refundsOf(project)).filter((r) => r.purchaseId === purchaseId);
      expect(recorded).toHaveLength(1);
      expect(recorded[0]!.amountMinorUnits).toBe(stripe.refunds.at(-1)!.amount);
    }
  });

  it("a subscription: what its latest invoice was paid with is refunded", async () => {
    const { project, accountId } = await kit.connectedProject();
    const user = await signUpUser(server, project);
    await kit.startPurchase(project, user.userId, "pro", "monthly");
    const sub = [...stripe.subscriptions.values()].find((s) => s.json.metadata.latchkey_customer_id === user.userId)!.json;
    const start = Math.floor(server.clock.now() / 1000);
    expect((await kit.deliver(kit.invoicePaid(sub.id, start, start + 30 * 86400, accountId))).status).toBe(200);
    const [purchase] = await kit.purchasesOf(project, user.userId);

    const before = stripe.received.length;
    const res = await refund(project, {
      type: "subscription",
      id: purchase!.id,
      refund_entries: [{ entry_index: 0, quantity: 1, amount_usd: "12.50" }],
    });
    expect(res.status, res.text).toBe(200);
    const calls = stripe.received.slice(before).map((r) => `${r.method} ${r.path}`);
    expect(calls).toEqual([`GET /v1/subscriptions/${sub.id}`, "GET /v1/invoice_payments", "POST /v1/refunds"]);
    expect(stripe.refunds.at(-1)).toMatchObject({ account: accountId, amount: 1250, paymentIntent: expect.stringMatching(/^pi_/) });
    expect(await ownedCount(project, user)).toBe(0);
  });

  it("a purchase revoked without money does not reach Stripe", async () => {
    const { project, accountId } = await kit.connectedProject();
    const { purchaseId } = await lifetimeBuyer(project, accountId);
    const before = stripe.received.length;
    const res = await refund(project, {
      type: "one-time-purchase",
      id: purchaseId,
      refund_entries: [{ entry_index: 0, quantity: 1, amount_usd: "0" }],
    });
    expect(res.status, res.text).toBe(200);
    expect(stripe.received.length).toBe(before);
  });

  it("Stripe down: 502; Stripe refusing: 400 with its words; a payment it no longer has: not found; nothing recorded", async () => {
    const { project, accountId } = await kit.connectedProject();
    const { user, purchaseId, intentId } = await lifetimeBuyer(project, accountId);
    const body = { type: "one-time-purchase", id: purchaseId, refund_entries: [{ entry_index: 0, quantity: 1, amount_usd: "50" }] };
    stripe.down = true;
    try {
      expectPlainError(await refund(project, body), 502, /^Stripe did not answer as expected\./);
    } finally {
      stripe.down = false;
    }
    expect(await refundsOf(project)).toEqual([]);
    expect(await ownedCount(project, user)).toBe(1);

    // More than Stripe holds of the payment (refunded there already, say): Stripe's words, nothing recorded.
    stripe.paymentIntents.get(intentId)!.json.amount = 1000;
    expectPlainError(await refund(project, body), 400, /^Stripe refused the request: Refund amount \(\$50\) is greater than/);
    expect(await refundsOf(project)).toEqual([]);

    stripe.paymentIntents.delete(intentId);
    expectKnownError(await refund(project, body), "ONE_TIME_PURCHASE_NOT_FOUND", 404);
    expect(await refundsOf(project)).toEqual([]);
    expect(await ownedCount(project, user)).toBe(1);
  });
});
