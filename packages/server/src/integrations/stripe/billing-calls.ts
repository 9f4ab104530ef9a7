/**
 * The billing calls of the `StripeApi` (api.ts) with the `stripe` package: a
 * customer's default card (found where Stripe may keep it) and saving a new
 * one through a SetupIntent. client.ts wraps each in its error translation.
 */
import type Stripe from "stripe";
import { StripeUnavailable, type StripeCardSummary, type StripeCheckout, type StripeSetupIntentState } from "./api.ts";

type Options = { stripeAccount: string } | undefined;

const optionsOf = (onAccount: string | undefined): Options => (onAccount ? { stripeAccount: onAccount } : undefined);

const idOf = (value: string | { id: string } | null | undefined): string | null =>
  typeof value === "string" ? value : (value?.id ?? null);

function summaryOf(method: Stripe.PaymentMethod): StripeCardSummary {
  return {
    id: method.id,
    brand: method.card?.brand ?? null,
    last4: method.card?.last4 ?? null,
    expMonth: method.card?.exp_month ?? null,
    expYear: method.card?.exp_year ?? null,
  };
}

/** A payment method that is a card (an id alone, unexpanded, says nothing of its type). */
const asCard = (method: string | Stripe.PaymentMethod | null | undefined): Stripe.PaymentMethod | null =>
  method && typeof method !== "string" && method.type === "card" ? method : null;

/**
 * Where Stripe keeps the card a customer's charges go to, in order: the invoices' default payment method, the one
 * `subscriptionId` saved when it was paid, then the first card saved on the customer.
 */
async function findDefaultCard(
  stripe: Stripe,
  customerId: string,
  subscriptionId: string | null,
  options: Options,
): Promise<Stripe.PaymentMethod | null> {
  const customer = await stripe.customers.retrieve(customerId, { expand: ["invoice_settings.default_payment_method"] }, options);
  if (customer.deleted) return null;
  const own = asCard(customer.invoice_settings?.default_payment_method);
  if (own) return own;
  if (subscriptionId !== null) {
    const subscription = await stripe.subscriptions.retrieve(subscriptionId, { expand: ["default_payment_method"] }, options);
    const saved = asCard(subscription.default_payment_method);
    if (saved) return saved;
  }
  const listed = await stripe.customers.listPaymentMethods(customerId, { type: "card", limit: 1 }, options);
  return listed.data[0] ?? null;
}

export async function defaultCard(
  stripe: Stripe,
  customerId: string,
  subscriptionId: string | null,
  onAccount: string | undefined,
): Promise<string | null> {
  return (await findDefaultCard(stripe, customerId, subscriptionId, optionsOf(onAccount)))?.id ?? null;
}

export async function defaultCardSummary(
  stripe: Stripe,
  customerId: string,
  onAccount: string | undefined,
): Promise<StripeCardSummary | null> {
  const card = await findDefaultCard(stripe, customerId, null, optionsOf(onAccount));
  return card ? summaryOf(card) : null;
}

export async function createSetupIntent(stripe: Stripe, customer: string, onAccount: string | undefined): Promise<StripeCheckout> {
  const intent = await stripe.setupIntents.create(
    { customer, usage: "off_session", allowed_payment_method_types: ["card"] },
    optionsOf(onAccount),
  );
  if (typeof intent.client_secret !== "string") throw new StripeUnavailable("Stripe answered no client secret for the setup intent");
  return { id: intent.id, clientSecret: intent.client_secret };
}

export async function retrieveSetupIntent(
  stripe: Stripe,
  setupIntentId: string,
  onAccount: string | undefined,
): Promise<StripeSetupIntentState> {
  const intent = await stripe.setupIntents.retrieve(setupIntentId, undefined, optionsOf(onAccount));
  return { id: intent.id, customer: idOf(intent.customer), status: intent.status, paymentMethod: idOf(intent.payment_method) };
}

export async function setInvoiceDefaultPaymentMethod(
  stripe: Stripe,
  customer: string,
  paymentMethod: string,
  onAccount: string | undefined,
): Promise<void> {
  await stripe.customers.update(customer, { invoice_settings: { default_payment_method: paymentMethod } }, optionsOf(onAccount));
}
