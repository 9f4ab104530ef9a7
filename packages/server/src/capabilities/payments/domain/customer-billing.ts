/**
 * A customer's card on the project's Stripe account: which one their
 * subscriptions are charged to, and saving another. A new card is saved by a
 * SetupIntent the customer's page confirms with Stripe's card form (the
 * card never passes through here); once it succeeded, the card it saved
 * becomes the customer's invoices' default, the one a plan switch charges.
 */
import { StatusError, type CustomerBillingJson, type PaymentMethodSetupIntentJson, type PaymentMethodSummaryJson } from "@latchkey/shared";
import type { Tenancy } from "../../../db/tenancy.ts";
import type { StripeCardSummary } from "../../../integrations/stripe/api.ts";
import type { Services } from "../../../services.ts";
import type { PaymentStripeAccountRow } from "../account-schema.ts";
import type { Customer } from "./customers.ts";
import { PAYMENTS_NOT_SET_UP_MESSAGE } from "./purchase-flow.ts";
import { stripeAccountOf } from "./stripe-account.ts";
import { stripeCardForm } from "./stripe-card-form.ts";
import { accountApi, knownStripeCustomer, stripeCall, stripeCustomerOf } from "./stripe-reach.ts";

const NO_CUSTOMER: CustomerBillingJson = { has_customer: false, default_payment_method: null };

function summaryJson(card: StripeCardSummary | null): PaymentMethodSummaryJson | null {
  return card && { id: card.id, brand: card.brand, last4: card.last4, exp_month: card.expMonth, exp_year: card.expYear };
}

/** The project's Stripe account; without one there is nothing to save a card on. */
async function requiredAccount(services: Services, scope: Tenancy): Promise<PaymentStripeAccountRow> {
  const account = await stripeAccountOf(services.db, scope);
  if (!account) throw new StatusError(400, PAYMENTS_NOT_SET_UP_MESSAGE);
  return account;
}

/** Whether the customer is known to Stripe, and their default card. */
export async function customerBilling(services: Services, scope: Tenancy, customer: Customer): Promise<CustomerBillingJson> {
  const account = await stripeAccountOf(services.db, scope);
  if (!account) return NO_CUSTOMER;
  const stripeCustomer = await knownStripeCustomer(services, scope, account, customer);
  if (!stripeCustomer) return NO_CUSTOMER;
  const reach = await accountApi(services, account);
  const card = await stripeCall(() => reach.api.defaultCardSummary(stripeCustomer, reach.onAccount));
  return { has_customer: true, default_payment_method: summaryJson(card) };
}

/** A SetupIntent saving a card for the customer (a Stripe customer is made for them if they had none). */
export async function createPaymentMethodSetupIntent(
  services: Services,
  scope: Tenancy,
  customer: Customer,
): Promise<PaymentMethodSetupIntentJson> {
  const account = await requiredAccount(services, scope);
  const reach = await accountApi(services, account);
  const stripeCustomer = await stripeCustomerOf(services, scope, account, customer, reach);
  const intent = await stripeCall(() => reach.api.createSetupIntent(stripeCustomer, reach.onAccount));
  return {
    client_secret: intent.clientSecret,
    stripe_account_id: account.stripeAccountId,
    card_form: await stripeCardForm(services, account),
  };
}

/** Makes the card a succeeded SetupIntent of the customer's saved their default; answers the default card after. */
export async function setDefaultPaymentMethodFromSetupIntent(
  services: Services,
  scope: Tenancy,
  customer: Customer,
  setupIntentId: string,
): Promise<PaymentMethodSummaryJson | null> {
  const account = await requiredAccount(services, scope);
  const reach = await accountApi(services, account);
  const intent = await stripeCall(() => reach.api.retrieveSetupIntent(setupIntentId, reach.onAccount));
  // A customer Stripe has never seen has no intent of their own either.
  const stripeCustomer = await knownStripeCustomer(services, scope, account, customer);
  if (!stripeCustomer || intent.customer !== stripeCustomer) throw new StatusError(403, "Setup intent does not belong to this customer.");
  if (intent.status !== "succeeded" || !intent.paymentMethod) throw new StatusError(400, "Setup intent has not succeeded.");
  const paymentMethod = intent.paymentMethod;
  await stripeCall(() => reach.api.setInvoiceDefaultPaymentMethod(stripeCustomer, paymentMethod, reach.onAccount));
  return summaryJson(await stripeCall(() => reach.api.defaultCardSummary(stripeCustomer, reach.onAccount)));
}
