/**
 * The `StripeApi` of api.ts made with the `stripe` package, against the API
 * at the operator's address (LATCHKEY_STRIPE_API_URL; Stripe's own unless a
 * stand-in is put there). Two kinds of caller: the operator's platform
 * account (its Connect accounts, one per project: LATCHKEY_STRIPE_SECRET_KEY),
 * and a project's own secret key.
 */
import Stripe from "stripe";
import {
  StripeKeyRefused,
  StripeUnavailable,
  StripeCardDeclined,
  StripeRequestRefused,
  type StripeSettings,
  type StripeAccountState,
  type StripeApi,
  type StripeRefundOutcome,
  type StripeRefundRequest,
  type StripeSubscriptionRequest,
  type StripeSubscriptionState,
} from "./api.ts";
import * as billing from "./billing-calls.ts";

/** Stripe made the object but gave no client secret to pay it with. */
function secretOf(secret: string | null | undefined, what: string): string {
  if (typeof secret !== "string") throw new StripeUnavailable(`Stripe answered no client secret for the ${what}`);
  return secret;
}

export interface StripeConnector {
  settings: StripeSettings;
  /** The platform's account (LATCHKEY_STRIPE_SECRET_KEY); null when the operator set none. */
  platform: StripeApi | null;
  /** Calls made with another secret key (a project's own). */
  withKey(secretKey: string): StripeApi;
  /**
   * The event a webhook delivered, when `signature` (its Stripe-Signature header) signs `payload` under
   * `secret` and was made within Stripe's tolerance of `nowMillis`; null otherwise.
   */
  verifiedEvent(payload: Uint8Array, signature: string, secret: string, nowMillis: number): Stripe.Event | null;
}

/** A request waits at most this long for Stripe (the package's own default is 80 s). */
const TIMEOUT_MILLIS = 20_000;

const stateOf = (account: Stripe.Account): StripeAccountState => ({
  id: account.id,
  chargesEnabled: account.charges_enabled ?? false,
  detailsSubmitted: account.details_submitted ?? false,
  payoutsEnabled: account.payouts_enabled ?? false,
});

function clientFor(secretKey: string, apiUrl: URL): Stripe {
  return new Stripe(secretKey, {
    host: apiUrl.hostname,
    port: apiUrl.port || (apiUrl.protocol === "https:" ? 443 : 80),
    protocol: apiUrl.protocol === "https:" ? "https" : "http",
    timeout: TIMEOUT_MILLIS,
    maxNetworkRetries: 1,
    telemetry: false,
    appInfo: { name: "Latchkey" },
  });
}

/** Runs a call, turning Stripe's refusals of the key and its outages into this module's errors. */
async function call<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof Stripe.errors.StripeAuthenticationError || error instanceof Stripe.errors.StripePermissionError)
      throw new StripeKeyRefused(error.message, { cause: error });
    if (error instanceof Stripe.errors.StripeConnectionError || error instanceof Stripe.errors.StripeAPIError)
      throw new StripeUnavailable(error.message, { cause: error });
    if (error instanceof Stripe.errors.StripeCardError) throw new StripeCardDeclined(error.message, { cause: error });
    if (error instanceof Stripe.errors.StripeInvalidRequestError) throw new StripeRequestRefused(error.message, { cause: error });
    throw error;
  }
}

const stateOfSubscription = (subscription: Stripe.Subscription): StripeSubscriptionState => {
  const item = subscription.items.data[0];
  return {
    id: subscription.id,
    status: subscription.status,
    period: item ? { start: new Date(item.current_period_start * 1000), end: new Date(item.current_period_end * 1000) } : null,
    cancelAtPeriodEnd: subscription.cancel_at_period_end,
  };
};

/** Stripe's `price_data` of a subscription item: an inline price of a product made for it. */
const priceData = (request: Omit<StripeSubscriptionRequest, "customer">, product: string) => ({
  currency: request.currency,
  unit_amount: request.unitAmount,
  product,
  recurring: { interval: request.interval.unit, interval_count: request.interval.count },
});

async function refund(
  stripe: Stripe,
  request: StripeRefundRequest,
  options: { stripeAccount: string } | undefined,
): Promise<StripeRefundOutcome> {
  const intent =
    "paymentIntent" in request.paid ? request.paid.paymentIntent : await latestInvoiceIntent(stripe, request.paid.subscription, options);
  if (!intent) return "no_payment";
  const made = await stripe.refunds.create(
    { payment_intent: intent, amount: request.amount, metadata: request.metadata },
    { ...options, idempotencyKey: request.idempotencyKey },
  );
  return { refundId: made.id };
}

/** The payment intent that paid a subscription's latest invoice; null when it has none paid. */
async function latestInvoiceIntent(
  stripe: Stripe,
  subscriptionId: string,
  options: { stripeAccount: string } | undefined,
): Promise<string | null> {
  const subscription = await stripe.subscriptions.retrieve(subscriptionId, undefined, options);
  const invoice = subscription.latest_invoice;
  const invoiceId = typeof invoice === "string" ? invoice : invoice?.id;
  if (!invoiceId) return null;
  const payments = await stripe.invoicePayments.list({ invoice: invoiceId, status: "paid", limit: 1 }, options);
  const intent = payments.data[0]?.payment.payment_intent;
  return (typeof intent === "string" ? intent : intent?.id) ?? null;
}

function stripeApi(stripe: Stripe): StripeApi {
  return {
    createConnectedAccount: (metadata, idempotencyKey) =>
      call(async () =>
        stateOf(
          await stripe.accounts.create(
            {
              controller: { stripe_dashboard: { type: "none" } },
              capabilities: { card_payments: { requested: true }, transfers: { requested: true } },
              metadata,
            },
            { idempotencyKey },
          ),
        ),
      ),
    createOnboardingLink: (accountId, returnUrl) =>
      call(
        async () =>
          (
            await stripe.accountLinks.create({
              account: accountId,
              refresh_url: returnUrl,
              return_url: returnUrl,
              type: "account_onboarding",
            })
          ).url,
      ),
    retrieveAccount: (accountId) =>
      call(async () =>
        stateOf(accountId === undefined ? await stripe.accounts.retrieveCurrent() : await stripe.accounts.retrieve(accountId)),
      ),
    createAccountSession: (accountId) =>
      call(async () => {
        const session = await stripe.accountSessions.create({
          account: accountId,
          components: {
            payments: { enabled: true, features: { refund_management: true, dispute_management: true, capture_payments: true } },
            payouts: { enabled: true, features: { instant_payouts: true, standard_payouts: true, edit_payout_schedule: true } },
            notification_banner: { enabled: true },
          },
        });
        return session.client_secret;
      }),
    createCustomer: (request, onAccount) =>
      call(async () => {
        const customer = await stripe.customers.create(
          { metadata: request.metadata },
          { idempotencyKey: request.idempotencyKey, ...(onAccount ? { stripeAccount: onAccount } : {}) },
        );
        return customer.id;
      }),
    createPaymentIntent: (request, onAccount) =>
      call(async () => {
        const intent = await stripe.paymentIntents.create(
          {
            amount: request.amount,
            currency: request.currency,
            customer: request.customer,
            automatic_payment_methods: { enabled: true },
            metadata: request.metadata,
          },
          onAccount ? { stripeAccount: onAccount } : undefined,
        );
        return { id: intent.id, clientSecret: secretOf(intent.client_secret, "payment intent") };
      }),
    createSubscription: (request, onAccount) =>
      call(async () => {
        const options = onAccount ? { stripeAccount: onAccount } : undefined;
        // An inline price needs a product of Stripe's to name.
        const product = await stripe.products.create({ name: request.productName, metadata: request.metadata }, options);
        const subscription = await stripe.subscriptions.create(
          {
            customer: request.customer,
            payment_behavior: "default_incomplete",
            payment_settings: { save_default_payment_method: "on_subscription" },
            // This API version pays an invoice through its confirmation secret (invoices no longer name a payment intent).
            expand: ["latest_invoice.confirmation_secret"],
            items: [{ price_data: priceData(request, product.id), quantity: request.quantity }],
            metadata: request.metadata,
          },
          options,
        );
        const invoice = subscription.latest_invoice;
        const secret = invoice && typeof invoice !== "string" ? invoice.confirmation_secret?.client_secret : undefined;
        return { id: subscription.id, clientSecret: secretOf(secret, "subscription's first invoice") };
      }),
    defaultCard: (customerId, subscriptionId, onAccount) => call(() => billing.defaultCard(stripe, customerId, subscriptionId, onAccount)),
    defaultCardSummary: (customerId, onAccount) => call(() => billing.defaultCardSummary(stripe, customerId, onAccount)),
    createSetupIntent: (customerId, onAccount) => call(() => billing.createSetupIntent(stripe, customerId, onAccount)),
    retrieveSetupIntent: (intentId, onAccount) => call(() => billing.retrieveSetupIntent(stripe, intentId, onAccount)),
    setInvoiceDefaultPaymentMethod: (customerId, method, onAccount) =>
      call(() => billing.setInvoiceDefaultPaymentMethod(stripe, customerId, method, onAccount)),
    changeSubscription: (subscriptionId, change, onAccount) =>
      call(async () => {
        const options = onAccount ? { stripeAccount: onAccount } : undefined;
        const current = await stripe.subscriptions.retrieve(subscriptionId, undefined, options);
        const item = current.items.data[0];
        if (!item) throw new StripeUnavailable(`Stripe answered subscription ${subscriptionId} with no items`);
        const product = await stripe.products.create({ name: change.productName, metadata: change.metadata }, options);
        const updated = await stripe.subscriptions.update(
          subscriptionId,
          {
            items: [{ id: item.id, price_data: priceData(change, product.id), quantity: change.quantity }],
            default_payment_method: change.paymentMethod,
            payment_behavior: "error_if_incomplete",
            proration_behavior: "always_invoice",
            metadata: change.metadata,
          },
          options,
        );
        return stateOfSubscription(updated);
      }),
    refundPayment: (request, onAccount) =>
      call(async () => {
        try {
          return await refund(stripe, request, onAccount ? { stripeAccount: onAccount } : undefined);
        } catch (error) {
          // The payment (or the subscription) is gone from the account: nothing there to refund.
          if (error instanceof Stripe.errors.StripeInvalidRequestError && error.code === "resource_missing") return "no_payment";
          if (error instanceof Stripe.errors.StripeIdempotencyError) return "key_used";
          throw error;
        }
      }),
    invoicePaidBy: (paymentIntent, onAccount) =>
      call(async () => {
        const payments = await stripe.invoicePayments.list(
          { payment: { type: "payment_intent", payment_intent: paymentIntent }, limit: 1 },
          onAccount ? { stripeAccount: onAccount } : undefined,
        );
        const invoice = payments.data[0]?.invoice;
        return (typeof invoice === "string" ? invoice : invoice?.id) ?? null;
      }),
    cancelSubscriptionAtPeriodEnd: (subscriptionId, onAccount) =>
      call(async () => {
        const options = onAccount ? { stripeAccount: onAccount } : undefined;
        try {
          const current = await stripe.subscriptions.retrieve(subscriptionId, undefined, options);
          // An ended subscription accepts no cancellation (Stripe refuses the update).
          if (current.status === "canceled" || current.status === "incomplete_expired") return "gone";
          if (current.cancel_at_period_end) return stateOfSubscription(current);
          return stateOfSubscription(await stripe.subscriptions.update(subscriptionId, { cancel_at_period_end: true }, options));
        } catch (error) {
          if (error instanceof Stripe.errors.StripeInvalidRequestError && error.code === "resource_missing") return "gone";
          throw error;
        }
      }),
    createChargedSubscription: (request, onAccount) =>
      call(async () => {
        const options = onAccount ? { stripeAccount: onAccount } : undefined;
        const product = await stripe.products.create({ name: request.productName, metadata: request.metadata }, options);
        const created = await stripe.subscriptions.create(
          {
            customer: request.customer,
            items: [{ price_data: priceData(request, product.id), quantity: request.quantity }],
            default_payment_method: request.paymentMethod,
            payment_behavior: "error_if_incomplete",
            metadata: request.metadata,
          },
          options,
        );
        return stateOfSubscription(created);
      }),
  };
}

export function stripeConnector(settings: StripeSettings): StripeConnector {
  const apiUrl = new URL(settings.apiUrl);
  // Signature checks need no key: the package's webhooks helper is the same on every client.
  const webhooks = Stripe.webhooks;
  return {
    settings,
    platform: settings.secretKey ? stripeApi(clientFor(settings.secretKey, apiUrl)) : null,
    withKey: (secretKey) => stripeApi(clientFor(secretKey, apiUrl)),
    verifiedEvent(payload, signature, secret, nowMillis) {
      try {
        return webhooks.constructEvent(Buffer.from(payload), signature, secret, undefined, undefined, nowMillis);
      } catch (error) {
        if (error instanceof Stripe.errors.StripeSignatureVerificationError) return null;
        throw error;
      }
    },
  };
}
