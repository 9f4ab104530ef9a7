/**
 * Money given back in Stripe itself (its dashboard), told by Stripe's signed
 * refund.created and charge.refunded events: each refund recorded once as a
 * refund transaction of its own amount (money only: the purchase stays
 * owned), whatever number of deliveries and events tell of it; the echo of a
 * refund made through our endpoint is that refund, whether it arrives after
 * the endpoint recorded it or before; a refund of no purchase of the project
 * is acknowledged and ignored.
 */
import { describe, expect, it } from "vitest";
import { signUpUser, type Project } from "./fixtures.ts";
import type { TestServer } from "./harness.ts";
import { listedMoneyRefund, refundKit } from "./payments-refund-kit.ts";
import { stripePurchaseKit, withStripeStandIn } from "./payments-stripe-kit.ts";
import { chargeRefundedEvent, refundCreatedEvent, stripeEvent, type StandInRefund, type StripeStandIn } from "./stripe-stand-in.ts";

const WEBHOOK_SECRET = "whsec_platformdashboardrefunds0123";

const PAYMENTS = {
  items: { seats: {} },
  products: {
    pro: { displayName: "Pro", prices: { monthly: { USD: "12.50", interval: [1, "month"] } } },
    lifetime: { displayName: "Lifetime", prices: { once: { USD: "50" } }, includedItems: { seats: { quantity: 2, expires: "never" } } },
  },
};

let stripe: StripeStandIn;
let server: TestServer;
withStripeStandIn(WEBHOOK_SECRET, (started) => ({ stripe, server } = started));
const kit = stripePurchaseKit({ server: () => server, stripe: () => stripe, payments: PAYMENTS, webhookSecret: WEBHOOK_SECRET });
const { refundsOf, owns, transactions } = refundKit(() => server);

/** A user who paid for Lifetime; answers the user, the purchase's id and the payment intent. */
async function lifetimeBuyer(project: Project, accountId: string) {
  const user = await signUpUser(server, project);
  await kit.startPurchase(project, user.userId, "lifetime", "once");
  const intent = [...stripe.paymentIntents.values()].find((i) => i.json.metadata.latchkey_customer_id === user.userId)!.json;
  expect((await kit.deliver(stripeEvent("payment_intent.succeeded", { ...intent, status: "succeeded" }, accountId))).status).toBe(200);
  const [purchase] = await kit.purchasesOf(project, user.userId);
  return { user, purchaseId: purchase!.id, intent };
}

const refund = (project: Project, body: Record<string, unknown>) =>
  server.request("/internal/payments/transactions/refund", { method: "POST", as: project.admin, body });

async function delivered(event: Record<string, unknown>): Promise<void> {
  const res = await kit.deliver(event);
  expect(res.status, res.text).toBe(200);
  expect(res.body).toEqual({ received: true });
}

describe("a refund made in Stripe's dashboard", () => {
  it("is recorded once, as money given back, however many deliveries and events tell of it; the purchase stays owned", async () => {
    const { project, accountId } = await kit.connectedProject();
    const { user, purchaseId, intent } = await lifetimeBuyer(project, accountId);
    const made = stripe.refundEvents.dashboardRefund(accountId, intent.id, 5000);

    const created = refundCreatedEvent(made, accountId);
    await delivered(created);
    await delivered(created); // Stripe delivers at least once
    await delivered(chargeRefundedEvent(intent, [made], accountId)); // the same refund, told by the charge
    await delivered(refundCreatedEvent(made, accountId)); // another event about it, under another id

    expect(await refundsOf(project)).toMatchObject([
      { purchaseId, origin: "stripe", stripeRefundId: made.id, amountMinorUnits: 5000, entries: [], customerId: user.userId },
    ]);
    expect(await owns(project, user.userId)).toBe(1);
    expect(await kit.quantity(project, user.userId, "seats")).toBe(2);
  });

  it("partial refunds: each records what it gave back; the endpoint may still refund what is left, once", async () => {
    const { project, accountId } = await kit.connectedProject();
    const { user, purchaseId, intent } = await lifetimeBuyer(project, accountId);
    const first = stripe.refundEvents.dashboardRefund(accountId, intent.id, 1000);
    await delivered(chargeRefundedEvent(intent, [first], accountId));
    const second = stripe.refundEvents.dashboardRefund(accountId, intent.id, 1550);
    await delivered(refundCreatedEvent(second, accountId));
    // The charge's later event carries both refunds: only the second is new, and it is recorded already.
    await delivered(chargeRefundedEvent(intent, [first, second], accountId));
    expect((await refundsOf(project)).map((r) => [r.origin, r.amountMinorUnits])).toEqual([
      ["stripe", 1000],
      ["stripe", 1550],
    ]);
    expect(await owns(project, user.userId)).toBe(1);

    // Money given back in Stripe is not a refund through the endpoint: it may refund (what Stripe still holds).
    const res = await refund(project, {
      type: "one-time-purchase",
      id: purchaseId,
      refund_entries: [{ entry_index: 0, quantity: 1, amount_usd: "24.50" }],
    });
    expect(res.status, res.text).toBe(200);
    expect((await refundsOf(project)).map((r) => [r.origin, r.amountMinorUnits])).toEqual([
      ["stripe", 1000],
      ["stripe", 1550],
      ["api", 2450],
    ]);
    expect(await owns(project, user.userId)).toBe(0);
  });

  it("is listed as a refund transaction of its amount, adjusting no entry of the purchase", async () => {
    const { project, accountId } = await kit.connectedProject();
    const { user, purchaseId, intent } = await lifetimeBuyer(project, accountId);
    const made = stripe.refundEvents.dashboardRefund(accountId, intent.id, 1234);
    server.clock.advance(1000);
    await delivered(refundCreatedEvent(made, accountId));
    const [row] = await refundsOf(project);

    const listed = await transactions(project);
    expect(listed.map((t) => t.type)).toEqual(["refund", "purchase"]);
    expect(listed[0]).toEqual(listedMoneyRefund(row!, user.userId, { USD: "-12.34" }));
    expect(listed[1]).toMatchObject({ id: purchaseId, adjusted_by: [] });
    expect((await transactions(project, { type: "refund" })).map((t) => t.id)).toEqual([row!.id]);
  });
});

describe("the echo of a refund made through the endpoint", () => {
  const fullRefund = (purchaseId: string) => ({
    type: "one-time-purchase",
    id: purchaseId,
    refund_entries: [{ entry_index: 0, quantity: 1, amount_usd: "50" }],
  });

  it("arriving after the endpoint recorded it: nothing more", async () => {
    const { project, accountId } = await kit.connectedProject();
    const { purchaseId, intent } = await lifetimeBuyer(project, accountId);
    const res = await refund(project, fullRefund(purchaseId));
    expect(res.status, res.text).toBe(200);
    const ours = stripe.refundEvents.all.at(-1)!;
    expect(ours.metadata).toMatchObject({ latchkey_purchase_id: purchaseId });

    await delivered(refundCreatedEvent(ours, accountId));
    await delivered(chargeRefundedEvent(intent, [ours], accountId));
    expect(await refundsOf(project)).toMatchObject([{ origin: "api", stripeRefundId: ours.id, amountMinorUnits: 5000 }]);
    expect((await refundsOf(project))[0]!.entries).toEqual([{ entryIndex: 0, quantity: 1, amountUsdCents: 5000 }]);
    const listed = await transactions(project);
    expect(listed.filter((t) => t.type === "refund")).toHaveLength(1);
    expect(listed.find((t) => t.type === "purchase")!.adjusted_by).toEqual([
      { transaction_id: (await refundsOf(project))[0]!.id, entry_index: 0 },
    ]);
  });

  it("arriving before the endpoint records it (while Stripe's answer is on its way): one refund, the endpoint's", async () => {
    const { project, accountId } = await kit.connectedProject();
    const { user, purchaseId } = await lifetimeBuyer(project, accountId);
    let echoed: StandInRefund | undefined;
    stripe.refundEvents.onNextRefund = async (made) => {
      echoed = made;
      await delivered(refundCreatedEvent(made, accountId));
      // Recorded from the event first, as money only: the purchase is still owned until the endpoint records.
      expect(await refundsOf(project)).toMatchObject([{ origin: "stripe", stripeRefundId: made.id, amountMinorUnits: 2000 }]);
      expect(await owns(project, user.userId)).toBe(1);
    };
    const res = await refund(project, {
      type: "one-time-purchase",
      id: purchaseId,
      refund_entries: [{ entry_index: 0, quantity: 1, amount_usd: "20" }],
    });
    expect(res.status, res.text).toBe(200);
    expect(echoed).toBeDefined();
    const rows = await refundsOf(project);
    expect(rows).toMatchObject([{ purchaseId, origin: "api", stripeRefundId: echoed!.id, amountMinorUnits: 2000 }]);
    expect(rows[0]!.entries).toEqual([{ entryIndex: 0, quantity: 1, amountUsdCents: 2000 }]);
    expect(await owns(project, user.userId)).toBe(0);

    // A later delivery of it, and a second refund through the endpoint, change nothing.
    await delivered(refundCreatedEvent(echoed!, accountId));
    expect(await refundsOf(project)).toHaveLength(1);
    expect((await refund(project, fullRefund(purchaseId))).status).toBe(400);
    const listed = await transactions(project, { type: "refund" });
    expect(listed).toHaveLength(1);
    expect(listed[0]!.entries.map((e) => e.type)).toEqual(["product_revocation", "money_transfer"]);
  });

  it("of a subscription's refund: found by the purchase the refund names", async () => {
    const { project, accountId } = await kit.connectedProject();
    const user = await signUpUser(server, project);
    await kit.startPurchase(project, user.userId, "pro", "monthly");
    const sub = [...stripe.subscriptions.values()].find((s) => s.json.metadata.latchkey_customer_id === user.userId)!.json;
    const start = Math.floor(server.clock.now() / 1000);
    await delivered(kit.invoicePaid(sub.id, start, start + 30 * 86400, accountId));
    const [purchase] = await kit.purchasesOf(project, user.userId);
    stripe.refundEvents.onNextRefund = (made) => delivered(refundCreatedEvent(made, accountId));
    const res = await refund(project, {
      type: "subscription",
      id: purchase!.id,
      refund_entries: [{ entry_index: 0, quantity: 1, amount_usd: "12.50" }],
    });
    expect(res.status, res.text).toBe(200);
    expect(await refundsOf(project)).toMatchObject([{ purchaseId: purchase!.id, origin: "api", amountMinorUnits: 1250 }]);
  });
});

describe("refund events of nothing of the project", () => {
  it("are acknowledged and change nothing: an unknown payment, another project's purchase, a failed refund, another currency", async () => {
    const { project, accountId } = await kit.connectedProject();
    const { purchaseId, intent } = await lifetimeBuyer(project, accountId);
    const other = await kit.connectedProject();
    const theirs = await lifetimeBuyer(other.project, other.accountId);
    const base = stripe.refundEvents.dashboardRefund(accountId, intent.id, 100);
    const variants: StandInRefund[] = [
      { ...base, id: "re_unknown1", payment_intent: "pi_madeelsewhere" },
      // Naming another project's purchase (in metadata or by its payment intent) reaches nothing here.
      {
        ...base,
        id: "re_unknown2",
        payment_intent: "pi_madeelsewhere",
        metadata: { latchkey_project_id: other.project.id, latchkey_purchase_id: theirs.purchaseId },
      },
      { ...base, id: "re_unknown3", payment_intent: theirs.intent.id },
      { ...base, id: "re_unknown4", metadata: { latchkey_project_id: project.id, latchkey_purchase_id: "not-a-uuid" }, payment_intent: "" },
      { ...base, id: "re_failed", status: "failed" },
      { ...base, id: "re_euro", currency: "eur" },
    ];
    for (const variant of variants) await delivered(refundCreatedEvent(variant, accountId));
    await delivered(chargeRefundedEvent({ ...intent, id: "pi_madeelsewhere" }, [variants[0]!], accountId));
    // A charge.refunded without its refunds (Stripe leaves them out unless asked) records nothing by itself.
    await delivered(chargeRefundedEvent(intent, [base], accountId, { withRefunds: false }));
    expect(await refundsOf(project)).toEqual([]);
    expect(await refundsOf(other.project)).toEqual([]);

    // The refund itself, told properly, is recorded.
    await delivered(refundCreatedEvent(base, accountId));
    expect(await refundsOf(project)).toMatchObject([{ purchaseId, stripeRefundId: base.id, amountMinorUnits: 100 }]);
  });

  it("a refund event with a bad signature is refused", async () => {
    const { accountId } = await kit.connectedProject();
    const res = await kit.deliver(stripeEvent("refund.created", { id: "re_x", object: "refund" }, accountId), undefined, "whsec_wrong");
    expect(res.status).toBe(400);
  });
});
