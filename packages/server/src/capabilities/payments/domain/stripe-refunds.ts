/**
 * Money given back in Stripe itself (its dashboard, or any other tool on the
 * account), as Stripe's events tell of it: `refund.created` for each refund,
 * and `charge.refunded` with the refunds it carries (Stripe includes them in
 * older API versions, or when the endpoint asks). Each refund is recorded
 * once, as a refund transaction giving back its own amount (a partial refund
 * gives back only what it refunded), kept by Stripe's refund id, so a refund
 * told by both events, or delivered twice, is one row.
 *
 * A refund is matched to its purchase by the payment it gave money back
 * from: a one-time purchase's payment intent, or one that paid an invoice
 * of a subscription (kept with the invoice, or asked of Stripe before the
 * event's transaction when not known yet: stripeRefundLookups).
 *
 * Such a refund only returns money: the purchase stays owned, as a refund
 * made in Stripe leaves it on the system we replace. Ending it is the
 * refund endpoint's work (domain/refunds.ts), which names what it revokes.
 *
 * A refund made through that endpoint is told by Stripe too (its echo). The
 * endpoint records it under the purchase row's lock, keyed by the same
 * refund id; the events take that lock before looking, so whichever comes
 * first records it and the other finds it: an echo arriving after is
 * nothing, one arriving before is recorded as money only, and the endpoint
 * then makes that row its refund.
 */
import { and, eq, type SQL } from "drizzle-orm";
import type Stripe from "stripe";
import type { DbOrTx } from "../../../db/connect.ts";
import { inTenancy, type Tenancy } from "../../../db/tenancy.ts";
import type { EventTx } from "../../../events/transaction.ts";
import type { Services } from "../../../services.ts";
import type { PaymentStripeAccountRow } from "../account-schema.ts";
import { currencyOfStripe } from "./charge-currency.ts";
import { chargedCurrency } from "./transactions.ts";
import { paymentPurchases, paymentRefunds, type PaymentPurchaseRow, type PaymentRefundRow } from "../schema.ts";
import { keepPaidIntent, subscriptionPaidBy } from "./invoices.ts";
import { accountApi } from "./stripe-reach.ts";

/** What Stripe said, before the event's transaction, of the refunded payments not known here. */
export interface StripeRefundLookups {
  /** A payment intent → the invoice Stripe says it paid (null: none). */
  invoicesPaidBy: ReadonlyMap<string, string | null>;
}

/** The transaction that records a Stripe event as applied, whose project it is, and what was asked of Stripe. */
export interface StripeRefundContext {
  services: Services;
  tx: EventTx;
  tenancy: Tenancy;
  account: PaymentStripeAccountRow;
  lookups: StripeRefundLookups;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Statuses of a refund that gave no money back (nor will): nothing to record. */
const NOT_REFUNDED: readonly string[] = ["failed", "canceled"];

/** The refund recorded for a Stripe refund id, if any. */
export async function recordedStripeRefund(db: DbOrTx, scope: Tenancy, stripeRefundId: string): Promise<PaymentRefundRow | undefined> {
  const [row] = await db
    .select()
    .from(paymentRefunds)
    .where(and(inTenancy(paymentRefunds, scope), eq(paymentRefunds.stripeRefundId, stripeRefundId)));
  return row;
}

const idOf = (value: string | { id: string } | null | undefined): string | null =>
  typeof value === "string" ? value : (value?.id ?? null);

const named = (refund: Stripe.Refund, tenancy: Tenancy): string | undefined =>
  refund.metadata?.latchkey_project_id === tenancy.projectId ? refund.metadata.latchkey_purchase_id : undefined;

/** Whether a refund may have given money back for a purchase (the others record nothing, and need no look-up). */
const givesMoneyBack = (refund: Stripe.Refund) =>
  !(refund.status && NOT_REFUNDED.includes(refund.status)) &&
  // A currency no price can be in is not one of ours.
  currencyOfStripe(refund.currency) !== null &&
  refund.amount > 0;

async function lockedPurchase(ctx: StripeRefundContext, match: SQL | undefined): Promise<PaymentPurchaseRow | undefined> {
  const [purchase] = await ctx.tx
    .select()
    .from(paymentPurchases)
    .where(and(inTenancy(paymentPurchases, ctx.tenancy), eq(paymentPurchases.source, "stripe"), match))
    .for("update");
  return purchase;
}

/** The subscription whose invoice a payment intent paid: kept with the invoice, else as Stripe answered before. */
async function subscriptionOfPayment(ctx: StripeRefundContext, intent: string): Promise<string | null> {
  const known = await subscriptionPaidBy(ctx.tx, ctx.tenancy, intent);
  if (known) return known;
  const invoiceId = ctx.lookups.invoicesPaidBy.get(intent);
  return invoiceId ? keepPaidIntent(ctx, invoiceId, intent) : null;
}

/**
 * The purchase a refund gave money back for, locked: one the endpoint refunded names itself in the refund's
 * metadata; any other is found by its payment intent (a one-time purchase's, or one that paid a subscription's
 * invoice).
 */
async function refundedPurchase(ctx: StripeRefundContext, refund: Stripe.Refund): Promise<PaymentPurchaseRow | undefined> {
  const purchaseId = named(refund, ctx.tenancy);
  if (purchaseId) return UUID.test(purchaseId) ? lockedPurchase(ctx, eq(paymentPurchases.id, purchaseId.toLowerCase())) : undefined;
  const intent = idOf(refund.payment_intent);
  if (!intent) return undefined;
  const oneTime = await lockedPurchase(ctx, and(eq(paymentPurchases.stripeId, intent), eq(paymentPurchases.kind, "one_time")));
  if (oneTime) return oneTime;
  const subscription = await subscriptionOfPayment(ctx, intent);
  return subscription
    ? lockedPurchase(ctx, and(eq(paymentPurchases.stripeId, subscription), eq(paymentPurchases.kind, "subscription")))
    : undefined;
}

/** Records one refund Stripe told of, once (see the top of this file). */
export async function recordStripeRefund(ctx: StripeRefundContext, refund: Stripe.Refund): Promise<void> {
  const { services, tx, tenancy } = ctx;
  if (!givesMoneyBack(refund)) return;
  // Its amount is in minor units of its currency, which must be the one the purchase was charged in.
  const currency = currencyOfStripe(refund.currency)!;
  const purchase = await refundedPurchase(ctx, refund);
  if (!purchase || chargedCurrency(purchase) !== currency) {
    services.logger.info(
      { projectId: tenancy.projectId, refundId: refund.id },
      "Stripe refund of no purchase of this project, or not in its currency: ignored",
    );
    return;
  }
  // Under the purchase's lock, which the endpoint's recording takes too.
  if (await recordedStripeRefund(tx, tenancy, refund.id)) return;
  await tx.insert(paymentRefunds).values({
    ...tenancy,
    purchaseId: purchase.id,
    customerType: purchase.customerType,
    customerId: purchase.customerId,
    entries: [],
    amountMinorUnits: refund.amount,
    currency,
    origin: "stripe",
    stripeRefundId: refund.id,
    createdAt: services.clock.date(),
  });
}

/** The refunds an event tells of, each with its payment intent (a charge's refunds may leave it to the charge). */
function refundsOf(event: { type: string; data: { object: unknown } }): Stripe.Refund[] {
  if (event.type === "refund.created") return [event.data.object as Stripe.Refund];
  if (event.type !== "charge.refunded") return [];
  const charge = event.data.object as Stripe.Charge;
  return (charge.refunds?.data ?? []).map((refund) => ({ ...refund, payment_intent: refund.payment_intent ?? charge.payment_intent }));
}

/** A refund was made (in Stripe, or through the refund endpoint: its echo). */
export const recordCreatedRefund = (ctx: StripeRefundContext, event: { type: "refund.created"; data: { object: Stripe.Refund } }) =>
  recordStripeRefund(ctx, refundsOf(event)[0]!);

/** A charge was refunded, in full or in part: each refund it carries, with the charge's payment intent. */
export async function recordChargeRefunds(ctx: StripeRefundContext, event: { type: "charge.refunded"; data: { object: Stripe.Charge } }) {
  for (const refund of refundsOf(event)) await recordStripeRefund(ctx, refund);
}

/**
 * Asked before a refund event's transaction (a call to Stripe would hold it open): for each payment intent it
 * refunded that no purchase or kept invoice of the project is known to have been paid by, the invoice Stripe says
 * it paid. A refund that names its purchase, or that gave no money back, needs no asking. Stripe unreachable fails
 * the delivery, which Stripe makes again later.
 */
export async function stripeRefundLookups(
  services: Services,
  account: PaymentStripeAccountRow,
  tenancy: Tenancy,
  event: { type: string; data: { object: unknown } },
): Promise<StripeRefundLookups> {
  const invoicesPaidBy = new Map<string, string | null>();
  for (const refund of refundsOf(event)) {
    const intent = idOf(refund.payment_intent);
    if (!intent || invoicesPaidBy.has(intent) || !givesMoneyBack(refund) || named(refund, tenancy)) continue;
    if (await recordedStripeRefund(services.db, tenancy, refund.id)) continue;
    const [oneTime] = await services.db
      .select({ id: paymentPurchases.id })
      .from(paymentPurchases)
      .where(and(inTenancy(paymentPurchases, tenancy), eq(paymentPurchases.stripeId, intent), eq(paymentPurchases.kind, "one_time")));
    if (oneTime || (await subscriptionPaidBy(services.db, tenancy, intent))) continue;
    const reach = await accountApi(services, account);
    invoicesPaidBy.set(intent, await reach.api.invoicePaidBy(intent, reach.onAccount));
  }
  return { invoicesPaidBy };
}
