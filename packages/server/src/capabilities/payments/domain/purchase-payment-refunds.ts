/**
 * Giving a purchase's money back: the one place a refund reaches a payment
 * provider. A purchase paid through Stripe is refunded there, on the
 * project's account: a one-time purchase's payment intent, or what a
 * subscription's latest invoice was paid with. One that was granted (the
 * API) or taken in test mode has no payment, so asking for money back is
 * refused in plain words. Called after every check and before the refund is
 * recorded, outside any transaction: a refusal here leaves nothing changed,
 * and the refund's idempotency key (the purchase) makes a retry after a lost
 * answer the same refund at Stripe.
 */
import { KnownErrors, StatusError } from "@latchkey/shared";
import type { Tenancy } from "../../../db/tenancy.ts";
import type { Services } from "../../../services.ts";
import type { PaymentPurchaseRow } from "../schema.ts";
import { PAYMENTS_NOT_SET_UP_MESSAGE } from "./purchase-flow.ts";
import { stripeAccountOf } from "./stripe-account.ts";
import { accountApi, stripeCall } from "./stripe-reach.ts";

export interface PurchasePaymentRefund {
  purchase: PaymentPurchaseRow;
  /** How much to give back, in minor units of the currency the purchase was charged in (more than zero). */
  amountMinorUnits: number;
}

export const NO_PAYMENT_TO_REFUND_MESSAGE = "This purchase was granted, not paid for: there is no payment to refund.";

/**
 * Gives the money back at the provider; answers the provider's refund id (the key its events about the refund
 * carry), or null when another refund of the purchase, with other amounts, already used its idempotency key (that
 * refund won).
 */
export async function refundPurchasePayment(services: Services, scope: Tenancy, refund: PurchasePaymentRefund): Promise<string | null> {
  const { purchase } = refund;
  if (purchase.source !== "stripe") throw new StatusError(400, NO_PAYMENT_TO_REFUND_MESSAGE);
  const notFound = () =>
    purchase.kind === "subscription"
      ? new KnownErrors.SubscriptionInvoiceNotFound(purchase.id)
      : new KnownErrors.OneTimePurchaseNotFound(purchase.id);
  // A purchase switched away from gave its Stripe subscription to the purchase that replaced it.
  if (!purchase.stripeId) throw notFound();
  const account = await stripeAccountOf(services.db, scope);
  if (!account) throw new StatusError(400, PAYMENTS_NOT_SET_UP_MESSAGE);
  const reach = await accountApi(services, account);
  const stripeId = purchase.stripeId;
  const refunded = await stripeCall(() =>
    reach.api.refundPayment(
      {
        paid: purchase.kind === "subscription" ? { subscription: stripeId } : { paymentIntent: stripeId },
        amount: refund.amountMinorUnits,
        metadata: { latchkey_project_id: scope.projectId, latchkey_purchase_id: purchase.id },
        idempotencyKey: `latchkey-refund-${scope.projectId}-${scope.branchId}-${purchase.id}`,
      },
      reach.onAccount,
    ),
  );
  if (refunded === "no_payment") throw notFound();
  return refunded === "key_used" ? null : refunded.refundId;
}
