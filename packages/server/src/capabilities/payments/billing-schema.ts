import { index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { tenancyColumns } from "../../db/schema/projects.ts";

/**
 * The invoices of customers' Stripe subscriptions, as Stripe's `invoice.*`
 * webhook events last described them (domain/invoices.ts): one row per
 * Stripe invoice and project, written over by each later event (an older
 * event delivered late changes nothing: `event_at`). Customers list them,
 * newest first, without a call to Stripe. Rows go with their project.
 */
export const paymentStripeInvoices = pgTable(
  "payment_stripe_invoices",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    ...tenancyColumns(),
    stripeAccountId: text("stripe_account_id").notNull(),
    stripeInvoiceId: text("stripe_invoice_id").notNull(),
    stripeSubscriptionId: text("stripe_subscription_id").notNull(),
    customerType: text("customer_type", { enum: ["user", "team", "custom"] }).notNull(),
    customerId: text("customer_id").notNull(),
    /** Stripe's word for it (draft, open, paid, uncollectible, void); null when Stripe gave none. */
    status: text("status"),
    /** In minor units of `currency`. */
    amountTotal: integer("amount_total").notNull(),
    currency: text("currency"),
    hostedInvoiceUrl: text("hosted_invoice_url"),
    /**
     * The payment intent that paid it, once known (from an event that carries it, or asked of Stripe when a refund
     * of an unknown payment arrives): how a refund made in Stripe finds its subscription.
     */
    stripePaymentIntentId: text("stripe_payment_intent_id"),
    /** When Stripe made the invoice. */
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull(),
    /** When Stripe made the event this row was last written from. */
    eventAt: timestamp("event_at", { withTimezone: true, mode: "date" }).notNull(),
  },
  (t) => [
    uniqueIndex("payment_stripe_invoices_invoice_idx").on(t.projectId, t.branchId, t.stripeInvoiceId),
    index("payment_stripe_invoices_payment_intent_idx").on(t.projectId, t.branchId, t.stripePaymentIntentId),
    index("payment_stripe_invoices_customer_idx").on(t.projectId, t.branchId, t.customerType, t.customerId, t.createdAt, t.id),
  ],
);

export type PaymentStripeInvoiceRow = typeof paymentStripeInvoices.$inferSelect;
