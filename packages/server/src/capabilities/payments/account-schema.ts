import type { Currency } from "@latchkey/shared";
import { boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import type { ProductSnapshot } from "./domain/product-snapshot.ts";
import { tenancyColumns } from "../../db/schema/projects.ts";

/**
 * A project's Stripe account, one per tenancy: either a connected account of
 * the operator's platform (`connect`, made by POST /internal/payments/setup)
 * or the project's own account, reached with its own secret key (`own_key`).
 * The account's state is what Stripe last said (on setup, on reading it, on
 * an `account.updated` event). An own key and its webhook signing secret are
 * sealed at rest as the data vault seals its values (one data key of their
 * own, wrapped under the operator's key-encryption key named by `key_id`;
 * capabilities/data-vault/domain/envelope.ts); the three columns are set
 * exactly for `own_key`. Rows go with their project.
 */
export const paymentStripeAccounts = pgTable(
  "payment_stripe_accounts",
  {
    ...tenancyColumns(),
    kind: text("kind", { enum: ["connect", "own_key"] }).notNull(),
    stripeAccountId: text("stripe_account_id").notNull(),
    chargesEnabled: boolean("charges_enabled").notNull(),
    detailsSubmitted: boolean("details_submitted").notNull(),
    payoutsEnabled: boolean("payouts_enabled").notNull(),
    keyId: text("key_id"),
    wrappedDataKey: text("wrapped_data_key"),
    /** `{secret_key, webhook_secret}` as JSON, sealed under the data key. */
    sealedSecrets: text("sealed_secrets"),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.branchId] }),
    // Connect events name the account, not the project.
    index("payment_stripe_accounts_account_idx").on(t.stripeAccountId),
  ],
);

export type PaymentStripeAccountRow = typeof paymentStripeAccounts.$inferSelect;

/**
 * Stripe events already applied, by event id: Stripe delivers an event at
 * least once (again when an answer was lost or slow), and the row, written in
 * the transaction that applies the event, makes a second delivery a no-op
 * (the unique index). Rows are kept well past Stripe's retries and its
 * dashboard's resends (domain/stripe-webhooks.ts), then swept.
 */
export const paymentStripeEvents = pgTable(
  "payment_stripe_events",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    ...tenancyColumns(),
    eventId: text("event_id").notNull(),
    type: text("type").notNull(),
    receivedAt: timestamp("received_at", { withTimezone: true, mode: "date" }).notNull(),
  },
  (t) => [
    uniqueIndex("payment_stripe_events_event_idx").on(t.projectId, t.branchId, t.eventId),
    index("payment_stripe_events_received_at_idx").on(t.receivedAt),
  ],
);

/**
 * The Stripe customer that stands for one of ours on a Stripe account: made
 * by the first purchase session and reused by every later one (keyed by the
 * account too, since a project that changes accounts has other customers).
 */
export const paymentStripeCustomers = pgTable(
  "payment_stripe_customers",
  {
    ...tenancyColumns(),
    stripeAccountId: text("stripe_account_id").notNull(),
    customerType: text("customer_type", { enum: ["user", "team", "custom"] }).notNull(),
    customerId: text("customer_id").notNull(),
    stripeCustomerId: text("stripe_customer_id").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.branchId, t.stripeAccountId, t.customerType, t.customerId] })],
);

/**
 * What a purchase session sold, by the Stripe object that takes the money (a
 * payment intent for a one-time price, a subscription for an interval price):
 * the webhook that says it was paid grants this, the product as it was when
 * the session was made. Kept after the grant (a subscription's later events
 * find its purchase by the same id).
 */
export const paymentStripeCheckouts = pgTable(
  "payment_stripe_checkouts",
  {
    ...tenancyColumns(),
    stripeId: text("stripe_id").notNull(),
    kind: text("kind", { enum: ["one_time", "subscription"] }).notNull(),
    customerType: text("customer_type", { enum: ["user", "team", "custom"] }).notNull(),
    customerId: text("customer_id").notNull(),
    productId: text("product_id"),
    product: jsonb("product").$type<ProductSnapshot>().notNull(),
    priceId: text("price_id").notNull(),
    quantity: integer("quantity").notNull(),
    /** The purchase code paid for; null for a subscription a switch made (subscription-switch.ts), which had none. */
    purchaseCodeId: uuid("purchase_code_id"),
    /** The currency Stripe charges it in; null for sessions made before it was recorded, which charged USD. */
    currency: text("currency").$type<Currency>(),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.branchId, t.stripeId] })],
);
