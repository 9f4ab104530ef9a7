/**
 * Money given back in Stripe's dashboard for a subscription's invoice (its
 * first, or a renewal): the refund's payment intent is matched to the invoice
 * it paid (kept with the invoice when an event told of it, else asked of
 * Stripe once, before the event's transaction) and recorded once against the
 * subscription's purchase, as money only; a payment neither we nor Stripe tie
 * to an invoice of ours is acknowledged and ignored.
 */
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { paymentStripeInvoices } from "../src/capabilities/payments/billing-schema.ts";
import { signUpUser, type Project } from "./fixtures.ts";
import type { TestServer } from "./harness.ts";
import { listedMoneyRefund, refundKit } from "./payments-refund-kit.ts";
import { stripePurchaseKit, withStripeStandIn } from "./payments-stripe-kit.ts";
import { stripeInvoice } from "./stripe-stand-in-billing.ts";
import { chargeRefundedEvent, refundCreatedEvent, stripeEvent, type StandInObject, type StripeStandIn } from "./stripe-stand-in.ts";

const WEBHOOK_SECRET = "whsec_platforminvoicerefunds01234";
const MONTH = 30 * 86400;

const PAYMENTS = {
  items: { seats: {} },
  products: {
    pro: {
      displayName: "Pro",
      prices: { monthly: { USD: "12.50", interval: [1, "month"] } },
      includedItems: { seats: { quantity: 3, expires: "never" } },
    },
  },
};

let stripe: StripeStandIn;
let server: TestServer;
withStripeStandIn(WEBHOOK_SECRET, (started) => ({ stripe, server } = started));
const kit = stripePurchaseKit({ server: () => server, stripe: () => stripe, payments: PAYMENTS, webhookSecret: WEBHOOK_SECRET });
const { refundsOf, owns, transactions } = refundKit(() => server);

const nowSeconds = () => Math.floor(server.clock.now() / 1000);

/** The invoice.paid Stripe sends for one of the stand-in's invoices, for the period from `start`. */
function invoicePaid(invoiceId: string, start: number, accountId: string, extra: Record<string, unknown> = {}) {
  const invoice = stripe.invoices.get(invoiceId)!;
  return stripeEvent(
    "invoice.paid",
    {
      ...stripeInvoice({ id: invoiceId, subscription: invoice.subscription, status: "paid", total: invoice.amount, created: start }),
      lines: { object: "list", data: [{ id: `il_${start}`, object: "line_item", period: { start, end: start + MONTH } }] },
      ...extra,
    },
    accountId,
  );
}

/** A user who bought Pro and paid its first invoice; answers the user, the purchase's id and the subscription. */
async function subscriber(project: Project, accountId: string) {
  const user = await signUpUser(server, project);
  await kit.startPurchase(project, user.userId, "pro", "monthly");
  const sub = [...stripe.subscriptions.values()].find((s) => s.json.metadata.latchkey_customer_id === user.userId)!.json;
  const subscriptionId = sub.id;
  const firstInvoice = sub.latest_invoice as string;
  await delivered(invoicePaid(firstInvoice, nowSeconds(), accountId));
  const [purchase] = await kit.purchasesOf(project, user.userId);
  return { user, purchaseId: purchase!.id, subscriptionId, firstInvoice };
}

/** The payment intent that paid an invoice, as `chargeRefundedEvent` takes it. */
const intentOf = (invoiceId: string): StandInObject["json"] => {
  const invoice = stripe.invoices.get(invoiceId)!;
  return { id: invoice.paymentIntent, amount: invoice.amount, metadata: {} };
};

async function delivered(event: Record<string, unknown>): Promise<void> {
  const res = await kit.deliver(event);
  expect(res.status, res.text).toBe(200);
  expect(res.body).toEqual({ received: true });
}

const keptIntent = async (project: Project, invoiceId: string) => {
  const i = paymentStripeInvoices;
  const [row] = await server.instance.services.db
    .select()
    .from(i)
    .where(and(eq(i.projectId, project.id), eq(i.stripeInvoiceId, invoiceId)));
  return row?.stripePaymentIntentId;
};
/** How many times the server asked Stripe which invoice a payment paid. */
const lookups = () => stripe.received.filter((r) => r.path === "/v1/invoice_payments" && r.form["payment[payment_intent]"]).length;

describe("a subscription invoice refunded in Stripe's dashboard", () => {
  it("the first invoice: recorded once against the subscription, asking Stripe once; the product stays", async () => {
    const { project, accountId } = await kit.connectedProject();
    const { user, purchaseId, firstInvoice } = await subscriber(project, accountId);
    // The invoice's events do not say which payment paid it (this API version keeps that on its payments).
    expect(await keptIntent(project, firstInvoice)).toBeNull();
    const made = stripe.refundEvents.dashboardRefund(accountId, intentOf(firstInvoice).id, 1250);
    const asked = lookups();

    const created = refundCreatedEvent(made, accountId);
    await delivered(created);
    expect(lookups()).toBe(asked + 1);
    expect(await keptIntent(project, firstInvoice)).toBe(made.payment_intent);
    await delivered(created); // Stripe delivers at least once
    await delivered(refundCreatedEvent(made, accountId)); // another event about it, under another id
    await delivered(chargeRefundedEvent(intentOf(firstInvoice), [made], accountId));

    expect(await refundsOf(project)).toMatchObject([
      { purchaseId, origin: "stripe", stripeRefundId: made.id, amountMinorUnits: 1250, entries: [], customerId: user.userId },
    ]);
    // Known from then on: Stripe is not asked again.
    expect(lookups()).toBe(asked + 1);
    expect(await owns(project, user.userId)).toBe(1);
    expect(await kit.quantity(project, user.userId, "seats")).toBe(3);
  });

  it("a renewal's invoice, told by charge.refunded: recorded against the same subscription, with its own amount", async () => {
    const { project, accountId } = await kit.connectedProject();
    const { user, purchaseId, subscriptionId, firstInvoice } = await subscriber(project, accountId);
    // Stripe renews it a month on (the event tells of the next period, as Stripe's would).
    const next = nowSeconds() + MONTH;
    const renewal = stripe.renewInvoice(subscriptionId);
    await delivered(invoicePaid(renewal, next, accountId));
    const [renewed] = await kit.purchasesOf(project, user.userId);
    expect(renewed!.currentPeriodStart).toEqual(new Date(next * 1000));

    const partial = stripe.refundEvents.dashboardRefund(accountId, intentOf(renewal).id, 500);
    await delivered(chargeRefundedEvent(intentOf(renewal), [partial], accountId));
    const rest = stripe.refundEvents.dashboardRefund(accountId, intentOf(renewal).id, 750);
    // The charge's later event carries both: only the second is new.
    await delivered(chargeRefundedEvent(intentOf(renewal), [partial, rest], accountId));
    expect((await refundsOf(project)).map((r) => [r.purchaseId, r.stripeRefundId, r.amountMinorUnits])).toEqual([
      [purchaseId, partial.id, 500],
      [purchaseId, rest.id, 750],
    ]);
    expect(await keptIntent(project, renewal)).toBe(intentOf(renewal).id);
    expect(await keptIntent(project, firstInvoice)).toBeNull();
    expect(await owns(project, user.userId)).toBe(1);
  });

  it("an invoice whose payment an event told of: matched without asking Stripe", async () => {
    const { project, accountId } = await kit.connectedProject();
    const { purchaseId, subscriptionId, firstInvoice } = await subscriber(project, accountId);
    // invoice_payment.paid names the intent that paid the first invoice.
    await delivered(
      stripeEvent(
        "invoice_payment.paid",
        {
          id: "inpay_first",
          object: "invoice_payment",
          invoice: firstInvoice,
          status: "paid",
          payment: { type: "payment_intent", payment_intent: intentOf(firstInvoice).id },
        },
        accountId,
      ),
    );
    expect(await keptIntent(project, firstInvoice)).toBe(intentOf(firstInvoice).id);
    // An invoice event that carries its payments (Stripe includes them when asked) keeps the intent too.
    const renewal = stripe.renewInvoice(subscriptionId);
    const payments = {
      object: "list",
      data: [
        {
          id: "inpay_failed",
          object: "invoice_payment",
          status: "canceled",
          payment: { type: "payment_intent", payment_intent: "pi_failed" },
        },
        {
          id: "inpay_paid",
          object: "invoice_payment",
          status: "paid",
          payment: { type: "payment_intent", payment_intent: intentOf(renewal).id },
        },
      ],
    };
    await delivered(invoicePaid(renewal, nowSeconds() + MONTH, accountId, { payments }));
    expect(await keptIntent(project, renewal)).toBe(intentOf(renewal).id);

    const asked = lookups();
    const first = stripe.refundEvents.dashboardRefund(accountId, intentOf(firstInvoice).id, 100);
    const second = stripe.refundEvents.dashboardRefund(accountId, intentOf(renewal).id, 200);
    await delivered(refundCreatedEvent(first, accountId));
    await delivered(refundCreatedEvent(second, accountId));
    expect(lookups()).toBe(asked);
    expect((await refundsOf(project)).map((r) => [r.purchaseId, r.amountMinorUnits])).toEqual([
      [purchaseId, 100],
      [purchaseId, 200],
    ]);
  });

  it("is listed as a refund transaction of its amount, adjusting no entry of the subscription's purchase", async () => {
    const { project, accountId } = await kit.connectedProject();
    const { user, purchaseId, firstInvoice } = await subscriber(project, accountId);
    const made = stripe.refundEvents.dashboardRefund(accountId, intentOf(firstInvoice).id, 1250);
    server.clock.advance(1000);
    await delivered(refundCreatedEvent(made, accountId));
    const [row] = await refundsOf(project);

    const listed = await transactions(project);
    expect(listed.map((t) => t.type)).toEqual(["refund", "purchase"]);
    expect(listed[0]).toEqual(listedMoneyRefund(row!, user.userId, { USD: "-12.5" }));
    expect(listed[1]).toMatchObject({ id: purchaseId, adjusted_by: [] });
    expect((await transactions(project, { type: "refund" })).map((t) => t.id)).toEqual([row!.id]);
  });

  it("while Stripe cannot be asked: the delivery fails and changes nothing; Stripe's next delivery records it", async () => {
    const { project, accountId } = await kit.connectedProject();
    const { purchaseId, firstInvoice } = await subscriber(project, accountId);
    const made = stripe.refundEvents.dashboardRefund(accountId, intentOf(firstInvoice).id, 300);
    const event = refundCreatedEvent(made, accountId);
    stripe.down = true;
    try {
      const res = await kit.deliver(event);
      expect(res.status).toBeGreaterThanOrEqual(500);
    } finally {
      stripe.down = false;
    }
    expect(await refundsOf(project)).toEqual([]);
    expect(await keptIntent(project, firstInvoice)).toBeNull();
    await delivered(event);
    expect(await refundsOf(project)).toMatchObject([{ purchaseId, stripeRefundId: made.id, amountMinorUnits: 300 }]);
  });
});

describe("the echo of a subscription refund made through the endpoint", () => {
  it("is that refund: nothing more is recorded, and Stripe is not asked", async () => {
    const { project, accountId } = await kit.connectedProject();
    const { purchaseId, firstInvoice } = await subscriber(project, accountId);
    const res = await server.request("/internal/payments/transactions/refund", {
      method: "POST",
      as: project.admin,
      body: { type: "subscription", id: purchaseId, refund_entries: [{ entry_index: 0, quantity: 1, amount_usd: "12.50" }] },
    });
    expect(res.status, res.text).toBe(200);
    const ours = stripe.refundEvents.all.at(-1)!;
    expect(ours.payment_intent).toBe(intentOf(firstInvoice).id);
    const asked = lookups();

    await delivered(refundCreatedEvent(ours, accountId));
    await delivered(chargeRefundedEvent(intentOf(firstInvoice), [ours], accountId));
    expect(await refundsOf(project)).toMatchObject([{ purchaseId, origin: "api", stripeRefundId: ours.id, amountMinorUnits: 1250 }]);
    expect(lookups()).toBe(asked);
  });
});

describe("refunds of payments no invoice of the project was paid by", () => {
  it("are acknowledged and change nothing: unknown to Stripe, another account's invoice, an invoice not kept", async () => {
    const { project, accountId } = await kit.connectedProject();
    const mine = await subscriber(project, accountId);
    const other = await kit.connectedProject();
    const theirs = await subscriber(other.project, other.accountId);
    const base = stripe.refundEvents.dashboardRefund(accountId, intentOf(mine.firstInvoice).id, 100);

    // A payment Stripe ties to no invoice.
    await delivered(refundCreatedEvent({ ...base, id: "re_nowhere", payment_intent: "pi_nowhere" }, accountId));
    // Another project's invoice payment, told on this project's account: Stripe finds no invoice here.
    await delivered(refundCreatedEvent({ ...base, id: "re_theirs", payment_intent: intentOf(theirs.firstInvoice).id }, accountId));
    // An invoice Stripe made on this account that no event told us of (a subscription not sold here).
    const stray = stripe.renewInvoice(mine.subscriptionId);
    stripe.invoices.set(stray, { ...stripe.invoices.get(stray)!, subscription: "sub_elsewhere" });
    await delivered(chargeRefundedEvent(intentOf(stray), [{ ...base, id: "re_stray", payment_intent: intentOf(stray).id }], accountId));
    // Failed, or in a currency no price can be in: Stripe is not even asked.
    const asked = lookups();
    await delivered(refundCreatedEvent({ ...base, id: "re_failed", payment_intent: "pi_failedone", status: "failed" }, accountId));
    await delivered(refundCreatedEvent({ ...base, id: "re_franc", payment_intent: "pi_franc", currency: "chf" }, accountId));
    expect(lookups()).toBe(asked);

    expect(await refundsOf(project)).toEqual([]);
    expect(await refundsOf(other.project)).toEqual([]);
    expect(await keptIntent(other.project, theirs.firstInvoice)).toBeNull();

    // The refund itself, told properly, is recorded.
    await delivered(refundCreatedEvent(base, accountId));
    expect(await refundsOf(project)).toMatchObject([{ purchaseId: mine.purchaseId, stripeRefundId: base.id }]);
  });
});
