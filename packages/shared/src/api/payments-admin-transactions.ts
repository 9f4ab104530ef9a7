/**
 * The payments history a project's admins see (the dashboard's Transactions
 * page): every purchase, hand-made item change and refund, newest first, as
 * transactions made of entries. A purchase is a product grant (and, when it
 * was paid, a money transfer); an item change made by the API, the SDK or
 * the dashboard is an item quantity change; a refund revokes what it
 * refunds and gives money back. An entry another transaction changed
 * (refunded) lists that one in `adjusted_by`.
 *
 * A refund names the purchase (a subscription or a one-time purchase) and,
 * per product grant entry, the quantity it takes back and the dollars it
 * returns. Test-mode purchases are not refundable; a purchase that was
 * granted rather than paid for can be revoked but has no money to return.
 */
import { z } from "zod";
import { CUSTOMER_TYPES } from "../constants.ts";
import { KnownErrors } from "../known-errors/index.ts";
import { defineEndpoint } from "./endpoint.ts";
import { productJson } from "./payments-products.ts";

export const TRANSACTION_TYPES = [
  "purchase",
  "subscription-cancellation",
  "subscription-renewal",
  "manual-item-quantity-change",
  "chargeback",
  "product-change",
  "refund",
] as const;
export type TransactionType = (typeof TRANSACTION_TYPES)[number];

export const TRANSACTIONS_DEFAULT_LIMIT = 50;
export const TRANSACTIONS_MAX_LIMIT = 200;

const adjustment = {
  /** Null except in revocations: the transaction and entry they change. */
  adjusted_transaction_id: z.string().nullable(),
  adjusted_entry_index: z.number().int().nullable(),
};
const customer = { customer_type: z.enum(CUSTOMER_TYPES), customer_id: z.string() };
/** Amounts per currency (`{"USD": "10"}`), negative for money given back. */
const amounts = z.record(z.string(), z.string());

export const transactionEntryJson = z.discriminatedUnion("type", [
  z.strictObject({
    type: z.literal("product_grant"),
    ...adjustment,
    ...customer,
    /** Null for an inline product. */
    product_id: z.string().nullable(),
    product: productJson,
    price_id: z.string().nullable(),
    quantity: z.number().int(),
    subscription_id: z.string().optional(),
    one_time_purchase_id: z.string().optional(),
  }),
  z.strictObject({ type: z.literal("money_transfer"), ...adjustment, ...customer, charged_amount: amounts, net_amount: amounts }),
  z.strictObject({ type: z.literal("item_quantity_change"), ...adjustment, ...customer, item_id: z.string(), quantity: z.number().int() }),
  z.strictObject({ type: z.literal("product_revocation"), ...adjustment, quantity: z.number().int() }),
  z.strictObject({ type: z.literal("product_revocation_reversal"), ...adjustment, quantity: z.number().int() }),
]);
export type TransactionEntryJson = z.infer<typeof transactionEntryJson>;

export const transactionJson = z.strictObject({
  id: z.string(),
  type: z.enum(TRANSACTION_TYPES),
  created_at_millis: z.number().int(),
  effective_at_millis: z.number().int(),
  /** Made in test mode: no money moved. */
  test_mode: z.boolean(),
  entries: z.array(transactionEntryJson),
  /** The later transactions that changed one of this one's entries. */
  adjusted_by: z.array(z.strictObject({ transaction_id: z.string(), entry_index: z.number().int() })),
});
export type TransactionJson = z.infer<typeof transactionJson>;

export const listTransactionsQuery = z.strictObject({
  /** A previous page's `next_cursor`. */
  cursor: z.string().optional(),
  /** How many (default 50); out of range is clamped to 1…200. */
  limit: z.string().optional(),
  type: z.enum(TRANSACTION_TYPES).optional(),
  customer_type: z.enum(CUSTOMER_TYPES).optional(),
});
export type ListTransactionsQuery = z.infer<typeof listTransactionsQuery>;

export const transactionsPageJson = z.strictObject({
  transactions: z.array(transactionJson),
  next_cursor: z.string().nullable(),
});
export type TransactionsPageJson = z.infer<typeof transactionsPageJson>;

export const REFUND_TARGET_TYPES = ["subscription", "one-time-purchase"] as const;

export const refundTransactionBody = z.strictObject({
  type: z.enum(REFUND_TARGET_TYPES),
  /** The subscription's or one-time purchase's id (its purchase transaction's id). */
  id: z.string(),
  refund_entries: z.array(
    z.strictObject({
      entry_index: z.number().int(),
      quantity: z.number().int(),
      /** Dollars given back for this entry (`"12.50"`); its format is checked by the server (the reference's message). */
      amount_usd: z.string(),
    }),
  ),
  /**
   * Gives back everything the purchase charged, in the currency it was charged in (any currency); each entry's
   * `amount_usd` must then be "0". Without it, money goes back only as `amount_usd`, for purchases charged in USD.
   */
  full_refund: z.boolean().optional(),
});
export type RefundTransactionBody = z.infer<typeof refundTransactionBody>;

export const paymentsAdminTransactionsEndpoints = {
  listTransactions: defineEndpoint({
    method: "GET",
    path: "/internal/payments/transactions",
    summary: "The project's payment transactions, newest first",
    tags: ["Payments"],
    access: ["admin"],
    query: listTransactionsQuery,
    response: transactionsPageJson,
  }),
  refundTransaction: defineEndpoint({
    method: "POST",
    path: "/internal/payments/transactions/refund",
    summary: "Refund a subscription or one-time purchase, revoking what it granted",
    tags: ["Payments"],
    access: ["admin"],
    body: refundTransactionBody,
    response: z.strictObject({ success: z.literal(true) }),
    errors: [
      KnownErrors.SubscriptionInvoiceNotFound,
      KnownErrors.OneTimePurchaseNotFound,
      KnownErrors.SubscriptionAlreadyRefunded,
      KnownErrors.OneTimePurchaseAlreadyRefunded,
      KnownErrors.TestModePurchaseNonRefundable,
    ],
  }),
};
