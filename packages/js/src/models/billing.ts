/**
 * A user's or team's billing: the card their subscriptions are charged to,
 * saving another (a Stripe SetupIntent that Stripe's card form confirms in
 * the browser, then made the default), and the invoices of their
 * subscriptions, newest first. Reads are cached per customer (apps/products.ts);
 * a new default card reads the customer's billing again.
 */
import type { CustomerInvoiceJson, InvoiceStatus, PaymentMethodSummaryJson } from "@latchkey/shared/api/index";
import type { AccessType, ApiClient } from "../interface/api-client.ts";
import type { Session } from "../session/session.ts";
import type { ItemCustomer } from "./item.ts";
import { stripeCardFormFromJson, type StripeCardForm } from "./stripe-card-form.ts";

/** How billing calls reach the API (a product context serves). */
export interface BillingContext {
  api: ApiClient;
  accessType: AccessType;
  /** The signed-in user's session (client apps), else null. */
  session: Session | null;
}

/**
 * A saved card (any part Stripe leaves out is null). Its expiry keeps the wire's names (`exp_month`, `exp_year`),
 * as apps written for the official SDK read them.
 */
export interface CustomerDefaultPaymentMethod {
  readonly id: string;
  readonly brand: string | null;
  readonly last4: string | null;
  readonly exp_month: number | null;
  readonly exp_year: number | null;
}

export interface CustomerBilling {
  /** Whether Stripe knows the customer (a purchase or a saved card made them a Stripe customer). */
  readonly hasCustomer: boolean;
  /** The card their subscriptions are charged to; null without one. */
  readonly defaultPaymentMethod: CustomerDefaultPaymentMethod | null;
}

export type CustomerInvoiceStatus = InvoiceStatus | null;

export interface CustomerInvoice {
  readonly createdAt: Date;
  /** Null for a status this version does not know. */
  readonly status: CustomerInvoiceStatus;
  /** In the currency's minor units (cents). */
  readonly amountTotal: number;
  /** Stripe's page of the invoice, where the customer reads and pays it. */
  readonly hostedInvoiceUrl: string | null;
}

/** A page of a customer's invoices, newest first; `nextCursor` reads the next page (null: the last). */
export type CustomerInvoicesList = CustomerInvoice[] & { nextCursor: string | null };

export interface CustomerInvoicesListOptions {
  /** A previous page's `nextCursor`. */
  cursor?: string;
  /** At most this many (1–100; the server's default is 10). */
  limit?: number;
}

/** What Stripe's card form needs to save a card: the SetupIntent's client secret and the Stripe account it is on. */
export interface CustomerPaymentMethodSetupIntent {
  readonly clientSecret: string;
  readonly stripeAccountId: string;
  /** How to load Stripe.js to confirm the SetupIntent (a null `publishableKey`: the project takes no card here). */
  readonly cardForm: StripeCardForm;
}

/** The customer as the billing endpoints name it: a user or a team (a custom customer has no card). */
function billingParams(customer: ItemCustomer) {
  if (customer.type === "custom") throw new TypeError("Only a user or a team has billing.");
  return { customer_type: customer.type, customer_id: customer.id };
}

function paymentMethodFromJson(json: PaymentMethodSummaryJson | null): CustomerDefaultPaymentMethod | null {
  return json && { id: json.id, brand: json.brand, last4: json.last4, exp_month: json.exp_month, exp_year: json.exp_year };
}

function invoiceFromJson(json: CustomerInvoiceJson): CustomerInvoice {
  return {
    createdAt: new Date(json.created_at_millis),
    status: json.status,
    amountTotal: json.amount_total,
    hostedInvoiceUrl: json.hosted_invoice_url,
  };
}

export async function fetchCustomerBilling(context: BillingContext, customer: ItemCustomer): Promise<CustomerBilling> {
  const json = await context.api.call("GET /payments/billing/:customer_type/:customer_id", {
    accessType: context.accessType,
    session: context.session,
    params: billingParams(customer),
  });
  return { hasCustomer: json.has_customer, defaultPaymentMethod: paymentMethodFromJson(json.default_payment_method) };
}

export async function fetchCustomerInvoices(
  context: BillingContext,
  customer: ItemCustomer,
  options: CustomerInvoicesListOptions = {},
): Promise<CustomerInvoicesList> {
  const json = await context.api.call("GET /payments/invoices/:customer_type/:customer_id", {
    accessType: context.accessType,
    session: context.session,
    params: billingParams(customer),
    query: {
      ...(options.cursor === undefined ? {} : { cursor: options.cursor }),
      ...(options.limit === undefined ? {} : { limit: options.limit }),
    },
  });
  return Object.assign(json.items.map(invoiceFromJson), { nextCursor: json.pagination.next_cursor });
}

/** A SetupIntent that saves a card for the customer, for Stripe's card form to confirm. */
export async function createPaymentMethodSetupIntent(
  context: BillingContext,
  customer: ItemCustomer,
): Promise<CustomerPaymentMethodSetupIntent> {
  const json = await context.api.call("POST /payments/payment-method/:customer_type/:customer_id/setup-intent", {
    accessType: context.accessType,
    session: context.session,
    params: billingParams(customer),
    body: {},
  });
  return { clientSecret: json.client_secret, stripeAccountId: json.stripe_account_id, cardForm: stripeCardFormFromJson(json.card_form) };
}

/** Makes the card a succeeded SetupIntent saved the customer's default; answers the default card after. */
export async function setDefaultPaymentMethodFromSetupIntent(
  context: BillingContext,
  customer: ItemCustomer,
  setupIntentId: string,
): Promise<CustomerDefaultPaymentMethod | null> {
  const json = await context.api.call("POST /payments/payment-method/:customer_type/:customer_id/set-default", {
    accessType: context.accessType,
    session: context.session,
    params: billingParams(customer),
    body: { setup_intent_id: setupIntentId },
  });
  return paymentMethodFromJson(json.default_payment_method);
}
