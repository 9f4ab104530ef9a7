/**
 * What the server does with each type of Stripe event, in one table: a new
 * handler is one more entry under its event type (several may share a type,
 * run in order). `dispatchStripeEvent` runs them in the transaction that
 * records the event (stripe-webhooks.ts), so an event's effects and its
 * "applied" mark commit together: a failing handler rolls both back, and
 * Stripe's next delivery tries again.
 */
import type Stripe from "stripe";
import type { Tenancy } from "../../../db/tenancy.ts";
import type { EventTx } from "../../../events/transaction.ts";
import type { Services } from "../../../services.ts";
import type { PaymentStripeAccountRow } from "../account-schema.ts";
import { recordInvoicePayment, recordStripeInvoice } from "./invoices.ts";
import { storeAccountState } from "./stripe-account.ts";
import { applyStripePurchaseReport, type StripePurchaseReport } from "./stripe-purchases.ts";
import { recordChargeRefunds, recordCreatedRefund, type StripeRefundLookups } from "./stripe-refunds.ts";

export interface StripeEventContext {
  services: Services;
  /** The transaction that records the event as applied. */
  tx: EventTx;
  tenancy: Tenancy;
  /** The project's Stripe account the event came for. */
  account: PaymentStripeAccountRow;
  /** What was asked of Stripe before the transaction (stripeRefundLookups). */
  lookups: StripeRefundLookups;
}

export type StripeEventOf<T extends Stripe.Event.Type> = Extract<Stripe.Event, { type: T }>;
export type StripeEventHandler<T extends Stripe.Event.Type> = (ctx: StripeEventContext, event: StripeEventOf<T>) => Promise<void>;
export type StripeEventHandlers = { readonly [T in Stripe.Event.Type]?: readonly StripeEventHandler<T>[] };

/** The account changed (onboarding went on, Stripe enabled or paused charges or payouts): keep its new state. */
const refreshAccountState: StripeEventHandler<"account.updated"> = async (ctx, event) => {
  const account = event.data.object;
  await storeAccountState(
    ctx.tx,
    ctx.tenancy,
    {
      id: account.id,
      chargesEnabled: account.charges_enabled ?? false,
      detailsSubmitted: account.details_submitted ?? false,
      payoutsEnabled: account.payouts_enabled ?? false,
    },
    ctx.services.clock.date(),
  );
};

const fromSeconds = (seconds: number) => new Date(seconds * 1000);

/** A one-time price's payment went through: grant what its purchase session sold. */
const grantPaidIntent: StripeEventHandler<"payment_intent.succeeded"> = (ctx, event) =>
  applyStripePurchaseReport(ctx, event.data.object.id, { paid: true });

/** A subscription's invoice was paid (its first, or a renewal): granted, and its period is the invoice's. */
const grantPaidInvoice: StripeEventHandler<"invoice.paid"> = async (ctx, event) => {
  const invoice = event.data.object;
  const subscription = invoice.parent?.subscription_details?.subscription;
  if (!subscription) return;
  const line = invoice.lines.data.find((l) => l.period.end > l.period.start);
  await applyStripePurchaseReport(ctx, typeof subscription === "string" ? subscription : subscription.id, {
    paid: true,
    ...(line ? { period: { start: fromSeconds(line.period.start), end: fromSeconds(line.period.end) } } : {}),
  });
};

/** Statuses in which a subscription is paid for (an incomplete one waits for its first invoice). */
const PAID_STATUSES: readonly Stripe.Subscription.Status[] = ["active", "trialing", "past_due"];

function subscriptionReport(subscription: Stripe.Subscription, now: Date): StripePurchaseReport {
  const item = subscription.items.data[0];
  const period = item ? { start: fromSeconds(item.current_period_start), end: fromSeconds(item.current_period_end) } : undefined;
  let endedAt: Date | null = null;
  if (subscription.status === "canceled" || subscription.status === "incomplete_expired") {
    endedAt = subscription.ended_at ? fromSeconds(subscription.ended_at) : now;
  } else if (subscription.cancel_at) {
    endedAt = fromSeconds(subscription.cancel_at);
  } else if (subscription.cancel_at_period_end && period) {
    endedAt = period.end;
  }
  return {
    paid: PAID_STATUSES.includes(subscription.status),
    ...(period ? { period } : {}),
    cancelAtPeriodEnd: subscription.cancel_at_period_end,
    endedAt,
  };
}

/** A subscription was made, changed (renewed, cancelled at its period's end, resumed) or ended, as Stripe says. */
const syncSubscription = (ctx: StripeEventContext, event: { data: { object: Stripe.Subscription } }) =>
  applyStripePurchaseReport(ctx, event.data.object.id, subscriptionReport(event.data.object, ctx.services.clock.date()));

export const stripeEventHandlers: StripeEventHandlers = {
  "account.updated": [refreshAccountState],
  "payment_intent.succeeded": [grantPaidIntent],
  "invoice.paid": [grantPaidInvoice, recordStripeInvoice],
  // A subscription's invoice changed: the customer's list of invoices shows it as it is now.
  "invoice.created": [recordStripeInvoice],
  "invoice.finalized": [recordStripeInvoice],
  "invoice.updated": [recordStripeInvoice],
  "invoice.payment_succeeded": [recordStripeInvoice],
  "invoice.payment_failed": [recordStripeInvoice],
  "invoice.marked_uncollectible": [recordStripeInvoice],
  "invoice.voided": [recordStripeInvoice],
  // Which payment intent paid an invoice, so that a refund of it made in Stripe finds the subscription.
  "invoice_payment.paid": [recordInvoicePayment],
  "customer.subscription.created": [syncSubscription],
  "customer.subscription.updated": [syncSubscription],
  "customer.subscription.deleted": [syncSubscription],
  // Money given back in Stripe (its dashboard, say), or the echo of a refund made through the API.
  "refund.created": [recordCreatedRefund],
  "charge.refunded": [recordChargeRefunds],
};

/** Whether any handler wants events of this type (the others are acknowledged and not recorded). */
export function handlesStripeEvent(type: string): boolean {
  return (stripeEventHandlers[type as Stripe.Event.Type]?.length ?? 0) > 0;
}

/** Runs the handlers of the event's type, in order. */
export async function dispatchStripeEvent(ctx: StripeEventContext, event: Stripe.Event): Promise<void> {
  const handlers = (stripeEventHandlers[event.type] ?? []) as readonly StripeEventHandler<typeof event.type>[];
  for (const handler of handlers) await handler(ctx, event);
}
