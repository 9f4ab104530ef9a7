/**
 * Refunding a subscription or one-time purchase (POST
 * /internal/payments/transactions/refund). The checks, in
 * the reference's order: each amount's format (a validation error naming no
 * field), the purchase (404), an earlier refund (400), test mode (a
 * test-mode subscription has no invoice: 404; a test-mode one-time purchase
 * is not refundable), then the entries against the purchase's transaction
 * (domain/transactions.ts `purchaseEntries`) and the total against what it
 * charged, then the money (domain/purchase-payment-refunds.ts). Amounts are
 * named in US dollars, so only a purchase charged in USD can be refunded in
 * part; a full refund gives back what was charged, in its currency.
 *
 * A refund ends the purchase at once (what it includes stops with it, as
 * for any ended purchase) and is recorded once per purchase
 * (payment_refunds), under the purchase row's lock, so of two concurrent
 * refunds one succeeds and the other is told it was already refunded.
 * Stripe tells of the same refund by an event too (domain/stripe-refunds.ts),
 * taking the same lock: whichever records it first, it is one row, kept by
 * Stripe's refund id; found already recorded from the event, it becomes
 * this refund (what it revokes, and the purchase's end).
 */
import { KnownErrors, type Currency, type RefundTransactionBody, type RenderedConfig } from "@latchkey/shared";
import { and, eq } from "drizzle-orm";
import type { DbOrTx } from "../../../db/connect.ts";
import { inTenancy, type Tenancy } from "../../../db/tenancy.ts";
import { InvalidInput } from "../../../lib/invalid-input.ts";
import type { Services } from "../../../services.ts";
import { paymentPurchases, paymentRefunds, type RefundedEntry } from "../schema.ts";
import { toMinorUnits } from "./money.ts";
import { paymentsNow } from "./payments-clock.ts";
import { refundPurchasePayment } from "./purchase-payment-refunds.ts";
import { recordedStripeRefund } from "./stripe-refunds.ts";
import { chargedCurrency, chargedMoney, purchaseEntries } from "./transactions.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MONEY_FORMAT_MESSAGE = "Money amount must be in the format of <number> or <number>.<number>";
const FULL_REFUND_WITH_AMOUNTS_MESSAGE = "A full refund gives back the whole charged amount; refund entries' amounts must be 0.";

export async function refundPurchase(
  services: Services,
  scope: Tenancy,
  config: RenderedConfig,
  body: RefundTransactionBody,
): Promise<void> {
  const requested: RefundedEntry[] = body.refund_entries.map((entry) => {
    const cents = toMinorUnits(entry.amount_usd, "USD");
    if (cents === null) throw new InvalidInput([MONEY_FORMAT_MESSAGE]);
    return { entryIndex: entry.entry_index, quantity: entry.quantity, amountUsdCents: cents };
  });
  const isSubscription = body.type === "subscription";
  const notFound = () =>
    isSubscription ? new KnownErrors.SubscriptionInvoiceNotFound(body.id) : new KnownErrors.OneTimePurchaseNotFound(body.id);

  const alreadyRefunded = () =>
    isSubscription ? new KnownErrors.SubscriptionAlreadyRefunded(body.id) : new KnownErrors.OneTimePurchaseAlreadyRefunded(body.id);

  // Checked first; the money goes back at the provider outside any transaction (a slow provider must not hold
  // the database: on PGlite every other query would wait), then the refund is recorded under the row's lock.
  const { purchase, money } = await services.db.transaction(async (tx) => {
    if (!UUID.test(body.id)) throw notFound();
    const [found] = await tx
      .select()
      .from(paymentPurchases)
      .where(and(inTenancy(paymentPurchases, scope), eq(paymentPurchases.id, body.id.toLowerCase())));
    if (!found || found.kind !== (isSubscription ? "subscription" : "one_time")) throw notFound();
    if (await wasRefunded(tx, scope, found.id)) throw alreadyRefunded();
    if (found.source === "test_mode") {
      // A test-mode subscription was never invoiced; a test-mode one-time purchase never paid.
      throw isSubscription ? notFound() : new KnownErrors.TestModePurchaseNonRefundable();
    }
    checkEntries(
      purchaseEntries(found).map((entry) => (entry.type === "product_grant" ? entry.quantity : null)),
      requested,
    );
    const total = requested.reduce((sum, entry) => sum + entry.amountUsdCents, 0);
    const charged = chargedMoney(found);
    if (body.full_refund) {
      if (total > 0) throw new KnownErrors.SchemaError(FULL_REFUND_WITH_AMOUNTS_MESSAGE);
      return { purchase: found, money: { currency: charged?.currency ?? chargedCurrency(found), units: charged?.units ?? 0 } };
    }
    if (total > 0) {
      if (charged?.currency !== "USD") throw new KnownErrors.SchemaError("Refund amounts can only be specified for USD-priced purchases.");
      if (total > charged.units) throw new KnownErrors.SchemaError("Refund amount cannot exceed the charged amount.");
    }
    return { purchase: found, money: { currency: "USD" as Currency, units: total } };
  });

  // One idempotency key per purchase: two refunds of it racing here are one refund at the provider.
  let stripeRefundId: string | null = null;
  if (money.units > 0) {
    stripeRefundId = await refundPurchasePayment(services, scope, { purchase, amountMinorUnits: money.units });
    if (stripeRefundId === null) throw alreadyRefunded();
  }

  await services.db.transaction(async (tx) => {
    await tx
      .select({ id: paymentPurchases.id })
      .from(paymentPurchases)
      .where(and(inTenancy(paymentPurchases, scope), eq(paymentPurchases.id, purchase.id)))
      .for("update");
    // Of two refunds that passed the checks at once, the second is told the first won.
    if (await wasRefunded(tx, scope, purchase.id)) throw alreadyRefunded();
    const now = await paymentsNow(services, tx, scope, config);
    // Stripe's event about this very refund may have been recorded first (as money only): it becomes this refund.
    const fromEvent = stripeRefundId ? await recordedStripeRefund(tx, scope, stripeRefundId) : undefined;
    if (fromEvent) {
      await tx
        .update(paymentRefunds)
        .set({ origin: "api", entries: requested, amountMinorUnits: money.units, currency: money.currency })
        .where(and(inTenancy(paymentRefunds, scope), eq(paymentRefunds.id, fromEvent.id)));
    } else {
      await tx.insert(paymentRefunds).values({
        ...scope,
        purchaseId: purchase.id,
        customerType: purchase.customerType,
        customerId: purchase.customerId,
        entries: requested,
        amountMinorUnits: money.units,
        currency: money.currency,
        origin: "api",
        stripeRefundId,
        createdAt: now,
      });
    }
    // Ends now, unless it already ended (a replaced subscription keeps its earlier end).
    const [current] = await tx
      .select({ endedAt: paymentPurchases.endedAt })
      .from(paymentPurchases)
      .where(and(inTenancy(paymentPurchases, scope), eq(paymentPurchases.id, purchase.id)));
    if (current && (current.endedAt === null || current.endedAt.getTime() > now.getTime())) {
      await tx
        .update(paymentPurchases)
        .set({ endedAt: now, cancelAtPeriodEnd: purchase.kind === "subscription" ? true : purchase.cancelAtPeriodEnd })
        .where(and(inTenancy(paymentPurchases, scope), eq(paymentPurchases.id, purchase.id)));
    }
  });
}

/** Whether the purchase was refunded through this endpoint (money given back in Stripe itself does not count). */
async function wasRefunded(db: DbOrTx, scope: Tenancy, purchaseId: string): Promise<boolean> {
  const [earlier] = await db
    .select({ id: paymentRefunds.id })
    .from(paymentRefunds)
    .where(and(inTenancy(paymentRefunds, scope), eq(paymentRefunds.purchaseId, purchaseId), eq(paymentRefunds.origin, "api")));
  return earlier !== undefined;
}

/** The reference's checks of each entry, in its order; `grantQuantities[i]` is entry i's granted quantity, null when it is not a product grant. */
function checkEntries(grantQuantities: (number | null)[], requested: RefundedEntry[]): void {
  const seen = new Set<number>();
  for (const entry of requested) {
    if (entry.quantity < 0) throw new KnownErrors.SchemaError("Refund quantity cannot be negative.");
    if (seen.has(entry.entryIndex)) throw new KnownErrors.SchemaError("Refund entries cannot contain duplicate entry indexes.");
    seen.add(entry.entryIndex);
    if (entry.entryIndex < 0 || entry.entryIndex >= grantQuantities.length)
      throw new KnownErrors.SchemaError("Refund entry index is invalid.");
    const granted = grantQuantities[entry.entryIndex];
    if (granted === null || granted === undefined)
      throw new KnownErrors.SchemaError("Refund entries must reference product grant entries.");
    if (entry.quantity > granted) throw new KnownErrors.SchemaError("Refund quantity cannot exceed purchased quantity.");
  }
}
