/**
 * Giving a purchase's money back: the one place a refund reaches a payment
 * provider. A purchase paid through Stripe is refunded there (the Stripe
 * integration implements `refundPurchasePayment` for `source: "stripe"`);
 * one that was granted (the API) or taken in test mode has no payment, so
 * asking for money back is refused in plain words. Called inside the
 * refund's database transaction, after every check: a refusal here leaves
 * nothing changed.
 */
import { StatusError } from "@latchkey/shared";
import type { Services } from "../../../services.ts";
import type { Tenancy } from "../../../db/tenancy.ts";
import type { PaymentPurchaseRow } from "../schema.ts";

export interface PurchasePaymentRefund {
  purchase: PaymentPurchaseRow;
  /** How much to give back, in US cents (more than zero). */
  amountUsdCents: number;
}

export const NO_PAYMENT_TO_REFUND_MESSAGE = "This purchase was granted, not paid for: there is no payment to refund.";

export async function refundPurchasePayment(_services: Services, _scope: Tenancy, refund: PurchasePaymentRefund): Promise<void> {
  // Stripe-paid purchases do not exist until the Stripe integration records them; it replaces this branch.
  throw new StatusError(
    400,
    refund.purchase.source === "stripe" ? "Stripe payments cannot be refunded by this server yet." : NO_PAYMENT_TO_REFUND_MESSAGE,
  );
}
