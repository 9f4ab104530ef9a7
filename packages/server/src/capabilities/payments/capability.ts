/**
 * Payments: items (what a customer has a quantity of) and, built on them,
 * products, purchases and their transactions. A customer is a user, a team,
 * or the app's own id (domain/customers.ts). Quantities are a ledger of
 * grants and removals (domain/ledger.ts) kept in payment_item_changes
 * (schema.ts), plus what owned products include.
 *
 * Taking payments: the project's Stripe account (account-schema.ts;
 * domain/stripe-account.ts), onboarded through the operator's platform
 * (Connect) or reached with the project's own key, and Stripe's webhook
 * events, verified, applied once each and handed to the handlers of their
 * type (domain/stripe-webhooks.ts, domain/stripe-event-handlers.ts). The
 * Stripe API itself is behind integrations/stripe/client.ts.
 *
 * Outside this folder: the wire schemas (`paymentsItemsEndpoints`) and the
 * known errors are in @latchkey/shared (api/payments-items.ts,
 * known-errors/payments.ts); the catalogue (`payments.*`) in its config
 * schema; the tables' migrations in db/migrations/.
 */
import { paymentsAdminEndpoints, paymentsItemsEndpoints } from "@latchkey/shared";
import { defineCapability } from "../define.ts";
import { removeCustomerLedger } from "./domain/removed-customers.ts";
import { forgetOldStripeEvents } from "./domain/stripe-webhooks.ts";
import { paymentItemChanges, paymentStripeAccounts, paymentStripeEvents } from "./schema.ts";

export default defineCapability({
  name: "payments",
  contract: { ...paymentsItemsEndpoints, ...paymentsAdminEndpoints },
  tables: [paymentItemChanges, paymentStripeAccounts, paymentStripeEvents],
  // A user or team that is deleted takes its ledger with it (no foreign key: a customer id is text).
  events: { subscribes: [{ types: ["user.deleted", "team.deleted"], beforeCommit: removeCustomerLedger }] },
  configKeys: ["payments.items", "payments.products", "payments.productLines", "payments.blockNewPurchases", "payments.testMode"],
  housekeeping: [{ name: "oldStripeEventIds", sweep: forgetOldStripeEvents }],
  jobs: [],
});
