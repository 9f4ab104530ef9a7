/**
 * Stripe, as the payments capability sees it: the `StripeApi` interface (the
 * few calls it makes), what they take and answer, and the errors they throw.
 * client.ts implements it with the `stripe` package; the domain depends on
 * this file only, so another implementation can stand in for it.
 */
import type Stripe from "stripe";

export interface StripeSettings {
  /** The platform account's secret key; null: no Connect onboarding, only projects' own keys. */
  secretKey: string | null;
  /** The signing secret of the platform's webhook endpoint (Connect events); null: none is accepted. */
  webhookSecret: string | null;
  /** The platform account's publishable key, for the purchase page's Stripe.js; null or absent: no card form for Connect. */
  publishableKey?: string | null;
  /** The API's origin, e.g. https://api.stripe.com. */
  apiUrl: string;
}

/** What the payments capability keeps of an account. */
export interface StripeAccountState {
  id: string;
  chargesEnabled: boolean;
  detailsSubmitted: boolean;
  payoutsEnabled: boolean;
}

/** Stripe answered the key as not valid (revoked, mistyped, or a publishable key). */
export class StripeKeyRefused extends Error {}

/** Stripe could not be reached, or refused a request for a reason that is not the caller's. */
export class StripeUnavailable extends Error {}

/** Stripe tried the customer's card and it was declined (the message is Stripe's, fit to show the customer). */
export class StripeCardDeclined extends Error {}

/** Stripe refused a request as invalid (a refund above what was paid, say); the message is Stripe's. */
export class StripeRequestRefused extends Error {}

export interface StripeApi {
  /**
   * A new connected account of the platform, tagged with `metadata`. The same `idempotencyKey` within Stripe's
   * 24 hours answers the account the first call made, so concurrent callers end up with one account.
   */
  createConnectedAccount(metadata: Record<string, string>, idempotencyKey: string): Promise<StripeAccountState>;
  /** The onboarding page of a connected account; Stripe sends the admin back to `returnUrl`. */
  createOnboardingLink(accountId: string, returnUrl: string): Promise<string>;
  /** A connected account, or (no id) the key's own account. */
  retrieveAccount(accountId?: string): Promise<StripeAccountState>;
  /** The client secret of the embedded account components (payments, payouts) for an account. */
  createAccountSession(accountId: string): Promise<string>;
  /** A new customer (on the connected account `onAccount`, or the key's own); answers its id. */
  createCustomer(request: StripeCustomerRequest, onAccount: string | undefined): Promise<string>;
  /** A one-time payment of `amount` minor units; answers its id and the client secret that pays it. */
  createPaymentIntent(request: StripePaymentRequest, onAccount: string | undefined): Promise<StripeCheckout>;
  /**
   * A subscription left incomplete until its first invoice is paid; answers its id and the client secret
   * of that invoice's payment.
   */
  createSubscription(request: StripeSubscriptionRequest, onAccount: string | undefined): Promise<StripeCheckout>;
  /**
   * The card a customer's subscriptions may be charged to while they are away: their invoices' default payment
   * method, else the one `subscriptionId` saved when it was paid, else the first card saved on the customer;
   * null when none is a card.
   */
  defaultCard(customer: string, subscriptionId: string | null, onAccount: string | undefined): Promise<string | null>;
  /** The customer's default card as `defaultCard` finds it (without a subscription), described; null without one. */
  defaultCardSummary(customer: string, onAccount: string | undefined): Promise<StripeCardSummary | null>;
  /** A SetupIntent that saves a card of the customer's for charges made while they are away. */
  createSetupIntent(customer: string, onAccount: string | undefined): Promise<StripeCheckout>;
  /** A SetupIntent as it is now. */
  retrieveSetupIntent(setupIntentId: string, onAccount: string | undefined): Promise<StripeSetupIntentState>;
  /** Makes a payment method saved on the customer their invoices' default. */
  setInvoiceDefaultPaymentMethod(customer: string, paymentMethod: string, onAccount: string | undefined): Promise<void>;
  /**
   * Moves a subscription to another price and quantity, charging the prorated difference to the card at once;
   * refused (StripeCardDeclined) rather than left unpaid when the card is declined.
   */
  changeSubscription(
    subscriptionId: string,
    change: StripeSubscriptionChange,
    onAccount: string | undefined,
  ): Promise<StripeSubscriptionState>;
  /** A subscription charged to a saved card at once; refused (StripeCardDeclined) rather than left incomplete. */
  createChargedSubscription(request: StripeChargedSubscriptionRequest, onAccount: string | undefined): Promise<StripeSubscriptionState>;
  /**
   * Gives back part or all of a payment: a one-time purchase's payment intent, or what a subscription's latest
   * invoice was paid with; answers the refund's id. `no_payment`: Stripe has no such payment; `key_used`: the
   * idempotency key was used for a refund with other amounts (that one was made).
   */
  refundPayment(request: StripeRefundRequest, onAccount: string | undefined): Promise<StripeRefundOutcome>;
  /**
   * The invoice a payment intent paid (Stripe keeps that on the invoice's payments, not on the intent); null when
   * it paid none.
   */
  invoicePaidBy(paymentIntent: string, onAccount: string | undefined): Promise<string | null>;
  /**
   * Cancels a subscription at its current period's end, so Stripe charges it no more. A subscription Stripe has
   * already ended, or no longer has, answers `"gone"`.
   */
  cancelSubscriptionAtPeriodEnd(subscriptionId: string, onAccount: string | undefined): Promise<StripeSubscriptionState | "gone">;
}

export type StripeRefundOutcome = { refundId: string } | "no_payment" | "key_used";

export interface StripeRefundRequest {
  /** The payment to refund: a payment intent's id, or a subscription's (its latest paid invoice's payment). */
  paid: { paymentIntent: string } | { subscription: string };
  /** In minor units, more than zero. */
  amount: number;
  metadata: Record<string, string>;
  /** A retried refund with the same key is the same refund at Stripe. */
  idempotencyKey: string;
}

export interface StripeCustomerRequest {
  metadata: Record<string, string>;
  idempotencyKey: string;
}

export interface StripePaymentRequest {
  customer: string;
  currency: string;
  amount: number;
  metadata: Record<string, string>;
}

export interface StripeSubscriptionRequest {
  customer: string;
  currency: string;
  /** Per unit, in minor units. */
  unitAmount: number;
  quantity: number;
  interval: { count: number; unit: "day" | "week" | "month" | "year" };
  productName: string;
  metadata: Record<string, string>;
}

/** The price a subscription moves to, and the card that pays the difference. */
export type StripeSubscriptionChange = Omit<StripeSubscriptionRequest, "customer"> & { paymentMethod: string };

export type StripeChargedSubscriptionRequest = StripeSubscriptionRequest & { paymentMethod: string };

/** A subscription as Stripe answered it after a change. */
export interface StripeSubscriptionState {
  id: string;
  status: Stripe.Subscription.Status;
  /** The current period (of its first item); null when Stripe gave none. */
  period: { start: Date; end: Date } | null;
  cancelAtPeriodEnd: boolean;
}

export interface StripeCheckout {
  id: string;
  clientSecret: string;
}

/** A saved card, as Stripe describes it. */
export interface StripeCardSummary {
  id: string;
  brand: string | null;
  last4: string | null;
  expMonth: number | null;
  expYear: number | null;
}

export interface StripeSetupIntentState {
  id: string;
  /** The Stripe customer it saves a card for; null when it names none. */
  customer: string | null;
  status: Stripe.SetupIntent.Status;
  /** The payment method it saved (once it succeeded). */
  paymentMethod: string | null;
}
