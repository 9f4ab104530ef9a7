/**
 * Cancelling a subscription: it stays owned until its current period ends, then ends. A subscription paid through
 * Stripe is cancelled at Stripe first (at its period's end, as here), so Stripe stops charging for it; until it does,
 * nothing is recorded here, and a failure at Stripe leaves the subscription as it was on both sides.
 */
import { StatusError, type RenderedConfig } from "@latchkey/shared";
import { and, eq } from "drizzle-orm";
import { inTenancy, type Tenancy } from "../../../db/tenancy.ts";
import type { Services } from "../../../services.ts";
import { paymentPurchases, type PaymentPurchaseRow } from "../schema.ts";
import type { Customer } from "./customers.ts";
import { paymentsNow } from "./payments-clock.ts";
import { PAYMENTS_NOT_SET_UP_MESSAGE } from "./purchase-flow.ts";
import { customerPurchases, isOwnedAt, lockCustomer, periodAt } from "./purchases.ts";
import { stripeAccountOf } from "./stripe-account.ts";
import { accountApi, stripeCall } from "./stripe-reach.ts";

/** The purchases a cancellation applies to, in the API's order of checks. */
function cancelable(purchases: PaymentPurchaseRow[], now: Date, productId: string, subscriptionId: string | undefined) {
  const owned = purchases.filter((p) => isOwnedAt(p, now) && p.productId === productId);
  if (owned.length === 0) throw new StatusError(400, "Customer does not have this product.");
  if (owned.some((p) => p.kind === "one_time")) throw new StatusError(400, "This product is a one time purchase and cannot be canceled.");
  const found = owned.filter((p) => !p.cancelAtPeriodEnd && (subscriptionId === undefined || p.id === subscriptionId));
  if (found.length === 0) throw new StatusError(400, "This subscription cannot be canceled.");
  return found;
}

export async function cancelProduct(
  services: Services,
  scope: Tenancy,
  config: RenderedConfig,
  customer: Customer,
  productId: string,
  subscriptionId: string | undefined,
): Promise<void> {
  // Stripe is called outside the transaction: a slow answer must not hold the database (PGlite has one connection).
  const now = await paymentsNow(services, services.db, scope, config);
  const atStripe = cancelable(await customerPurchases(services.db, scope, customer), now, productId, subscriptionId).filter(
    (p) => p.source === "stripe" && p.stripeId !== null,
  );
  if (atStripe.length > 0) await cancelAtStripe(services, scope, atStripe);

  await services.events.transaction(services.db, async (tx) => {
    await lockCustomer(tx, scope, customer);
    const at = await paymentsNow(services, tx, scope, config);
    for (const purchase of cancelable(await customerPurchases(tx, scope, customer), at, productId, subscriptionId)) {
      await tx
        .update(paymentPurchases)
        .set({ cancelAtPeriodEnd: true, endedAt: periodAt(purchase, at)?.end ?? at, cancelledAt: at })
        .where(and(inTenancy(paymentPurchases, scope), eq(paymentPurchases.id, purchase.id)));
    }
  });
}

async function cancelAtStripe(services: Services, scope: Tenancy, purchases: PaymentPurchaseRow[]): Promise<void> {
  const account = await stripeAccountOf(services.db, scope);
  // Without the account Stripe cannot be told, and cancelling here alone would leave Stripe charging the customer.
  if (!account) throw new StatusError(400, PAYMENTS_NOT_SET_UP_MESSAGE);
  const reach = await accountApi(services, account);
  for (const purchase of purchases) {
    // A subscription Stripe no longer has charges nobody: cancelling it here is all that is left to do.
    await stripeCall(() => reach.api.cancelSubscriptionAtPeriodEnd(purchase.stripeId!, reach.onAccount));
  }
}
