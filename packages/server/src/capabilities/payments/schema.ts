import { sql } from "drizzle-orm";
import { bigint, boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import type { Currency } from "@latchkey/shared";
import { tenancyColumns } from "../../db/schema/projects.ts";
import type { ProductSnapshot } from "./domain/product-snapshot.ts";

/**
 * The item ledger's hand-made entries: each grant (positive) or removal
 * (negative) of an item for a customer, by the API, the SDK or the
 * dashboard. A customer's quantity is these replayed in order together with
 * what their products include (domain/ledger.ts); nothing here is ever
 * updated, so the history is the audit trail. The customer is a user or team
 * id, or the app's own id for a custom customer, hence text and no foreign
 * key: a deleted user's or team's entries are removed with them
 * (domain/customers.ts). `idempotency_key` makes a retried request apply once
 * (the unique index; keys are per customer and item).
 */
export const paymentItemChanges = pgTable(
  "payment_item_changes",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    ...tenancyColumns(),
    customerType: text("customer_type", { enum: ["user", "team", "custom"] }).notNull(),
    customerId: text("customer_id").notNull(),
    itemId: text("item_id").notNull(),
    quantity: integer("quantity").notNull(),
    /** When what is left of a grant stops counting; null: never. */
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }),
    description: text("description"),
    idempotencyKey: text("idempotency_key"),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull(),
  },
  (t) => [
    index("payment_item_changes_customer_idx").on(t.projectId, t.branchId, t.customerType, t.customerId, t.itemId, t.createdAt),
    // The transactions list: newest first, all or one customer type (domain/transactions.ts).
    index("payment_item_changes_recent_idx").on(t.projectId, t.branchId, t.createdAt, t.id),
    index("payment_item_changes_type_recent_idx").on(t.projectId, t.branchId, t.customerType, t.createdAt, t.id),
    uniqueIndex("payment_item_changes_idempotency_idx")
      .on(t.projectId, t.branchId, t.customerType, t.customerId, t.itemId, t.idempotencyKey)
      .where(sql`${t.idempotencyKey} IS NOT NULL`),
  ],
);

export type PaymentItemChangeRow = typeof paymentItemChanges.$inferSelect;

/**
 * What a customer bought or was granted: one row per subscription or
 * one-time purchase. `product` is the product as it was at the purchase
 * (a configured product may change or go later; an inline one has no id),
 * in the config's form (domain/products.ts `ProductSnapshot`).
 *
 * A subscription's period is stored as its first (or, for Stripe's, the one
 * Stripe last reported); one of ours renews every `interval` of its price
 * from there while `ended_at` is not reached (domain/purchases.ts). A
 * cancellation sets `cancel_at_period_end` and `ended_at` to the end of the
 * period it was made in; a subscription replaced by another of its product
 * line ends at once.
 */
export const paymentPurchases = pgTable(
  "payment_purchases",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    ...tenancyColumns(),
    customerType: text("customer_type", { enum: ["user", "team", "custom"] }).notNull(),
    customerId: text("customer_id").notNull(),
    /** Null for an inline product. */
    productId: text("product_id"),
    product: jsonb("product").$type<ProductSnapshot>().notNull(),
    priceId: text("price_id"),
    quantity: integer("quantity").notNull(),
    kind: text("kind", { enum: ["one_time", "subscription"] }).notNull(),
    currentPeriodStart: timestamp("current_period_start", { withTimezone: true, mode: "date" }),
    currentPeriodEnd: timestamp("current_period_end", { withTimezone: true, mode: "date" }),
    cancelAtPeriodEnd: boolean("cancel_at_period_end").notNull().default(false),
    /** When it stops being owned (may lie ahead: a cancelled subscription's period end); null: not ended. */
    endedAt: timestamp("ended_at", { withTimezone: true, mode: "date" }),
    /** When a cancellation was asked for (the transactions list shows it then); null: never cancelled. */
    cancelledAt: timestamp("cancelled_at", { withTimezone: true, mode: "date" }),
    testMode: boolean("test_mode").notNull(),
    source: text("source", { enum: ["api_grant", "test_mode", "stripe"] }).notNull(),
    /** A Stripe purchase's subscription or payment intent id: however many events tell of it, it is one purchase. */
    stripeId: text("stripe_id"),
    /**
     * The currency its price was paid in (through Stripe) or taken in (test mode). Null for a grant, and for
     * purchases made before the currency was recorded, which were all charged in USD.
     */
    currency: text("currency").$type<Currency>(),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull(),
  },
  (t) => [
    index("payment_purchases_customer_idx").on(t.projectId, t.branchId, t.customerType, t.customerId, t.createdAt),
    index("payment_purchases_recent_idx").on(t.projectId, t.branchId, t.createdAt, t.id),
    index("payment_purchases_type_recent_idx").on(t.projectId, t.branchId, t.customerType, t.createdAt, t.id),
    index("payment_purchases_cancelled_idx")
      .on(t.projectId, t.branchId, t.cancelledAt, t.id)
      .where(sql`${t.cancelledAt} IS NOT NULL`),
    index("payment_purchases_type_cancelled_idx")
      .on(t.projectId, t.branchId, t.customerType, t.cancelledAt, t.id)
      .where(sql`${t.cancelledAt} IS NOT NULL`),
    uniqueIndex("payment_purchases_stripe_idx")
      .on(t.projectId, t.branchId, t.stripeId)
      .where(sql`${t.stripeId} IS NOT NULL`),
  ],
);

export type PaymentPurchaseRow = typeof paymentPurchases.$inferSelect;

/**
 * Refunds of purchases. `origin` says who made it: `api`, the refund endpoint
 * (domain/refunds.ts), at most one per purchase (the partial unique index is
 * what refuses a second, also when two race); `stripe`, money given back in
 * Stripe itself (its dashboard, say), seen through its events
 * (domain/stripe-refunds.ts): any number per purchase, money only. One Stripe
 * refund is one row whichever side records it first (`stripe_refund_id`'s
 * unique index). `entries` are the endpoint's request (per product grant
 * entry of the purchase's transaction: the quantity revoked and the dollars
 * given back; empty for a refund made in Stripe); the customer is copied
 * from the purchase so the transactions list can filter refunds by customer
 * type without a join.
 */
export const paymentRefunds = pgTable(
  "payment_refunds",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    ...tenancyColumns(),
    purchaseId: uuid("purchase_id").notNull(),
    customerType: text("customer_type", { enum: ["user", "team", "custom"] }).notNull(),
    customerId: text("customer_id").notNull(),
    entries: jsonb("entries").$type<RefundedEntry[]>().notNull(),
    /** The total given back, in minor units of `currency` (cents; yen have none) (0: only revoked). */
    amountMinorUnits: bigint("amount_minor_units", { mode: "number" }).notNull(),
    /** The currency the money went back in: the one the purchase was charged in. */
    currency: text("currency").$type<Currency>().notNull().default("USD"),
    origin: text("origin", { enum: ["api", "stripe"] })
      .notNull()
      .default("api"),
    /** The refund at Stripe that gave the money back; null when none did (only revoked). */
    stripeRefundId: text("stripe_refund_id"),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull(),
  },
  (t) => [
    index("payment_refunds_purchase_idx").on(t.projectId, t.branchId, t.purchaseId),
    uniqueIndex("payment_refunds_api_purchase_idx")
      .on(t.projectId, t.branchId, t.purchaseId)
      .where(sql`${t.origin} = 'api'`),
    uniqueIndex("payment_refunds_stripe_refund_idx")
      .on(t.projectId, t.branchId, t.stripeRefundId)
      .where(sql`${t.stripeRefundId} IS NOT NULL`),
    index("payment_refunds_recent_idx").on(t.projectId, t.branchId, t.createdAt, t.id),
    index("payment_refunds_type_recent_idx").on(t.projectId, t.branchId, t.customerType, t.createdAt, t.id),
  ],
);

export interface RefundedEntry {
  entryIndex: number;
  quantity: number;
  amountUsdCents: number;
}

export type PaymentRefundRow = typeof paymentRefunds.$inferSelect;

/**
 * Purchase codes (create-purchase-url): the customer and product a purchase
 * page sells. Only the SHA-256 of the full code is kept, so the table does
 * not hand out working links; `used_at` is set by the one purchase that
 * takes it (an update that only matches an unused row, in that purchase's
 * transaction).
 */
export const paymentPurchaseCodes = pgTable(
  "payment_purchase_codes",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    ...tenancyColumns(),
    codeHash: text("code_hash").notNull(),
    customerType: text("customer_type", { enum: ["user", "team", "custom"] }).notNull(),
    customerId: text("customer_id").notNull(),
    productId: text("product_id"),
    product: jsonb("product").$type<ProductSnapshot>().notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true, mode: "date" }),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull(),
  },
  (t) => [
    uniqueIndex("payment_purchase_codes_hash_idx").on(t.projectId, t.branchId, t.codeHash),
    index("payment_purchase_codes_expiry_idx").on(t.expiresAt),
  ],
);

/**
 * How far a project's payments time runs ahead of the server's (the test
 * clock, domain/payments-clock.ts): a developer moves it to see renewals and
 * period ends without waiting. Only while the project is in test mode.
 */
export const paymentTestClocks = pgTable(
  "payment_test_clocks",
  {
    ...tenancyColumns(),
    offsetMs: bigint("offset_ms", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.branchId] })],
);
export * from "./account-schema.ts";
export * from "./billing-schema.ts";
