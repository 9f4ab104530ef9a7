/**
 * Money given back in Stripe itself (its dashboard, or any other tool on the
 * account), as Stripe's events tell of it: `refund.created` for each refund,
 * and `charge.refunded` with the refunds it carries (Stripe includes them in
 * older API versions, or when the endpoint asks). Each refund is recorded
 * once, as a refund transaction giving back its own amount (a partial refund
 * gives back only what it refunded), kept by Stripe's refund id, so a refund
 * told by both events, or delivered twice, is one row.
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
import { and, eq } from "drizzle-orm";
import type Stripe from "stripe";
import type { DbOrTx } from "../../../db/connect.ts";
import { inTenancy, type Tenancy } from "../../../db/tenancy.ts";
import type { EventTx } from "../../../events/transaction.ts";
import type { Services } from "../../../services.ts";
import { currencyOfStripe } from "./charge-currency.ts";
import { chargedCurrency } from "./transactions.ts";
import { paymentPurchases, paymentRefunds, type PaymentPurchaseRow, type PaymentRefundRow } from "../schema.ts";

/** The transaction that records a Stripe event as applied, and whose project it is. */
export interface StripeRefundContext {
  services: Services;
  tx: EventTx;
  tenancy: Tenancy;
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

/**
 * The purchase a refund gave money back for, locked: one the endpoint refunded names itself in the refund's
 * metadata; any other is found by its payment intent (a one-time purchase's).
 */
async function refundedPurchase(ctx: StripeRefundContext, refund: Stripe.Refund): Promise<PaymentPurchaseRow | undefined> {
  const { tx, tenancy } = ctx;
  const named = refund.metadata?.latchkey_project_id === tenancy.projectId ? refund.metadata.latchkey_purchase_id : undefined;
  const intent = idOf(refund.payment_intent);
  let match;
  if (named) {
    if (!UUID.test(named)) return undefined;
    match = eq(paymentPurchases.id, named.toLowerCase());
  } else if (intent) {
    match = and(eq(paymentPurchases.stripeId, intent), eq(paymentPurchases.kind, "one_time"));
  } else {
    return undefined;
  }
  const [purchase] = await tx
    .select()
    .from(paymentPurchases)
    .where(and(inTenancy(paymentPurchases, tenancy), eq(paymentPurchases.source, "stripe"), match))
    .for("update");
  return purchase;
}

/** Records one refund Stripe told of, once (see the top of this file). */
export async function recordStripeRefund(ctx: StripeRefundContext, refund: Stripe.Refund): Promise<void> {
  const { services, tx, tenancy } = ctx;
  if (refund.status && NOT_REFUNDED.includes(refund.status)) return;
  // Its amount is in minor units of its currency, which must be the one the purchase was charged in.
  const currency = currencyOfStripe(refund.currency);
  if (!currency || refund.amount <= 0) return;
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

/** A refund was made (in Stripe, or through the refund endpoint: its echo). */
export const recordCreatedRefund = (ctx: StripeRefundContext, event: { data: { object: Stripe.Refund } }) =>
  recordStripeRefund(ctx, event.data.object);

/** A charge was refunded, in full or in part: each refund it carries, with the charge's payment intent. */
export async function recordChargeRefunds(ctx: StripeRefundContext, event: { data: { object: Stripe.Charge } }): Promise<void> {
  const charge = event.data.object;
  for (const refund of charge.refunds?.data ?? []) {
    await recordStripeRefund(ctx, { ...refund, payment_intent: refund.payment_intent ?? charge.payment_intent });
  }
}
