/**
 * A customer's billing, as their account settings show it: the card their
 * subscriptions are charged to, a way to save another one (a Stripe
 * SetupIntent the page confirms with Stripe's card form, then makes the
 * default), and the invoices of their subscriptions, newest first. For a
 * user or a team (a custom customer has no card); a client manages its own
 * user's billing, and a team's with `team_admin` in it.
 */
import { z } from "zod";
import { KnownErrors } from "../known-errors/index.ts";
import { defineEndpoint } from "./endpoint.ts";
import { stripeCardFormJson } from "./payments-products.ts";

/** The customers with billing: users and teams. */
export const billingCustomerParams = z.strictObject({ customer_type: z.enum(["user", "team"]), customer_id: z.string() });
export type BillingCustomerParams = z.infer<typeof billingCustomerParams>;

/** A saved card, as Stripe describes it (any part Stripe leaves out is null). */
export const paymentMethodSummaryJson = z.strictObject({
  id: z.string(),
  brand: z.string().nullable(),
  last4: z.string().nullable(),
  exp_month: z.number().int().nullable(),
  exp_year: z.number().int().nullable(),
});
export type PaymentMethodSummaryJson = z.infer<typeof paymentMethodSummaryJson>;

export const customerBillingJson = z.strictObject({
  /** Whether the customer has a Stripe customer on the project's account (a purchase or a saved card made one). */
  has_customer: z.boolean(),
  default_payment_method: paymentMethodSummaryJson.nullable(),
});
export type CustomerBillingJson = z.infer<typeof customerBillingJson>;

export const INVOICE_STATUSES = ["draft", "open", "paid", "uncollectible", "void"] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

export const INVOICES_DEFAULT_LIMIT = 10;
export const INVOICES_MAX_LIMIT = 100;

export const customerInvoiceJson = z.strictObject({
  created_at_millis: z.number().int(),
  /** Null for a status this version does not know. */
  status: z.enum(INVOICE_STATUSES).nullable(),
  /** In the invoice currency's minor units. */
  amount_total: z.number().int(),
  /** Stripe's page of the invoice, where the customer can read and pay it. */
  hosted_invoice_url: z.string().nullable(),
});
export type CustomerInvoiceJson = z.infer<typeof customerInvoiceJson>;

export const listInvoicesQuery = z.strictObject({
  /** The `next_cursor` of the previous page: this page starts after that invoice. */
  cursor: z.string().optional(),
  limit: z.coerce.number().int().min(1).max(INVOICES_MAX_LIMIT).optional(),
});

export const customerInvoicesListJson = z.strictObject({
  items: z.array(customerInvoiceJson),
  is_paginated: z.literal(true),
  pagination: z.strictObject({ next_cursor: z.string().nullable() }),
});
export type CustomerInvoicesListJson = z.infer<typeof customerInvoicesListJson>;

export const paymentMethodSetupIntentJson = z.strictObject({
  /** What Stripe's card form confirms the SetupIntent with. */
  client_secret: z.string(),
  /** The Stripe account the SetupIntent is on. */
  stripe_account_id: z.string(),
  /** How the page loads Stripe.js to confirm it (a null key: the project takes no card here). */
  card_form: stripeCardFormJson,
});
export type PaymentMethodSetupIntentJson = z.infer<typeof paymentMethodSetupIntentJson>;

export const setDefaultPaymentMethodBody = z.strictObject({ setup_intent_id: z.string() });

const CLIENT_ACCESS_ERRORS = [KnownErrors.TeamMembershipNotFound, KnownErrors.TeamPermissionRequired] as const;
const CUSTOMER_ERRORS = [KnownErrors.UserNotFound, KnownErrors.TeamNotFound, ...CLIENT_ACCESS_ERRORS] as const;
const ACCESS = ["client", "server", "admin"] as const;

export const paymentsBillingEndpoints = {
  getCustomerBilling: defineEndpoint({
    method: "GET",
    path: "/payments/billing/:customer_type/:customer_id",
    summary: "Whether a customer has a Stripe customer, and the card their subscriptions are charged to",
    tags: ["Payments"],
    access: ACCESS,
    params: billingCustomerParams,
    response: customerBillingJson,
    errors: CUSTOMER_ERRORS,
  }),
  listCustomerInvoices: defineEndpoint({
    method: "GET",
    path: "/payments/invoices/:customer_type/:customer_id",
    summary: "The invoices of a customer's subscriptions, newest first",
    tags: ["Payments"],
    access: ACCESS,
    params: billingCustomerParams,
    query: listInvoicesQuery,
    response: customerInvoicesListJson,
    errors: CUSTOMER_ERRORS,
  }),
  createPaymentMethodSetupIntent: defineEndpoint({
    method: "POST",
    path: "/payments/payment-method/:customer_type/:customer_id/setup-intent",
    summary: "A Stripe SetupIntent that saves a card for the customer's later charges",
    tags: ["Payments"],
    access: ACCESS,
    params: billingCustomerParams,
    body: z.strictObject({}),
    response: paymentMethodSetupIntentJson,
    errors: CUSTOMER_ERRORS,
  }),
  setDefaultPaymentMethod: defineEndpoint({
    method: "POST",
    path: "/payments/payment-method/:customer_type/:customer_id/set-default",
    summary: "Make the card a succeeded SetupIntent saved the customer's default",
    tags: ["Payments"],
    access: ACCESS,
    params: billingCustomerParams,
    body: setDefaultPaymentMethodBody,
    response: z.strictObject({ success: z.literal(true), default_payment_method: paymentMethodSummaryJson.nullable() }),
    errors: CUSTOMER_ERRORS,
  }),
};
