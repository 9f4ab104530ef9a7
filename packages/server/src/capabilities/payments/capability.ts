/**
 * Payments: items (what a customer has a quantity of) and, built on them,
 * products, purchases and their transactions. A customer is a user, a team,
 * or the app's own id (domain/customers.ts). Quantities are a ledger of
 * grants and removals (domain/ledger.ts) kept in payment_item_changes
 * (schema.ts), plus what owned products include (domain/included-items.ts).
 * What a customer owns is payment_purchases (domain/purchases.ts), granted by
 * the API or bought through a purchase code (domain/purchase-flow.ts,
 * payment_purchase_codes); in test mode a purchase needs no payment account
 * (domain/stripe-account.ts) and the project's payments time can be moved
 * ahead (domain/payments-clock.ts, payment_test_clocks). A grant records
 * `payments.product_granted` in its transaction. Admins list all of it as
 * transactions (domain/transactions.ts) and refund purchases
 * (domain/refunds.ts, payment_refunds), the money through one function a
 * payment provider implements (domain/purchase-payment-refunds.ts).
 *
 * Taking payments: the project's Stripe account (account-schema.ts;
 * domain/stripe-account.ts), onboarded through the operator's platform
 * (Connect) or reached with the project's own key, and Stripe's webhook
 * events, verified, applied once each and handed to the handlers of their
 * type (domain/stripe-webhooks.ts, domain/stripe-event-handlers.ts). A
 * purchase code is paid for through a purchase session (a payment intent or
 * subscription on that account; domain/stripe-purchases.ts,
 * payment_stripe_customers, payment_stripe_checkouts) and granted when the
 * webhooks say it was paid. Money given back in Stripe itself (its
 * dashboard) is recorded from its refund events (domain/stripe-refunds.ts),
 * once per Stripe refund, also when it is the echo of a refund made through
 * the API. A customer's billing
 * (domain/customer-billing.ts): their default card, saved through a
 * SetupIntent, and their subscriptions' invoices, kept from the webhooks
 * (domain/invoices.ts, payment_stripe_invoices). The Stripe API itself is behind
 * integrations/stripe/api.ts (made with the `stripe` package in client.ts).
 *
 * Outside this folder: the wire schemas (`paymentsItemsEndpoints`,
 * `paymentsProductsEndpoints`, `paymentsAdminEndpoints`,
 * `paymentsBillingEndpoints`) and the known errors are in @latchkey/shared
 * (api/payments-items.ts, api/payments-products.ts, api/payments-admin.ts,
 * api/payments-billing.ts,
 * known-errors/payments.ts); the catalogue (`payments.*`) in its config
 * schema; the tables' migrations in db/migrations/.
 */
import {
  paymentsAdminEndpoints,
  paymentsAdminTransactionsEndpoints,
  paymentsBillingEndpoints,
  paymentsItemsEndpoints,
  paymentsProductsEndpoints,
} from "@latchkey/shared";
import { defineCapability } from "../define.ts";
import { deleteExpiredPurchaseCodes } from "./domain/purchase-codes.ts";
import { removeCustomerLedger } from "./domain/removed-customers.ts";
import { forgetOldStripeEvents } from "./domain/stripe-webhooks.ts";
import {
  paymentItemChanges,
  paymentPurchaseCodes,
  paymentPurchases,
  paymentRefunds,
  paymentStripeAccounts,
  paymentStripeCheckouts,
  paymentStripeCustomers,
  paymentStripeEvents,
  paymentStripeInvoices,
  paymentTestClocks,
} from "./schema.ts";

export default defineCapability({
  name: "payments",
  contract: {
    ...paymentsItemsEndpoints,
    ...paymentsProductsEndpoints,
    ...paymentsAdminEndpoints,
    ...paymentsAdminTransactionsEndpoints,
    ...paymentsBillingEndpoints,
  },
  tables: [
    paymentItemChanges,
    paymentPurchases,
    paymentPurchaseCodes,
    paymentRefunds,
    paymentTestClocks,
    paymentStripeAccounts,
    paymentStripeEvents,
    paymentStripeCustomers,
    paymentStripeCheckouts,
    paymentStripeInvoices,
  ],
  // A user or team that is deleted takes its ledger with it (no foreign key: a customer id is text).
  events: { subscribes: [{ types: ["user.deleted", "team.deleted"], beforeCommit: removeCustomerLedger }] },
  configKeys: ["payments.items", "payments.products", "payments.productLines", "payments.blockNewPurchases", "payments.testMode"],
  housekeeping: [
    { name: "expiredPurchaseCodes", sweep: deleteExpiredPurchaseCodes },
    { name: "oldStripeEventIds", sweep: forgetOldStripeEvents },
  ],
  jobs: [],
});
