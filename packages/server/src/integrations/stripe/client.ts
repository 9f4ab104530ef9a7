/**
 * Stripe, as the payments capability uses it: the few calls it makes, through
 * the `stripe` package, against the API at the operator's address
 * (LATCHKEY_STRIPE_API_URL; Stripe's own unless a stand-in is put there). Two
 * kinds of caller: the operator's platform account (its Connect accounts, one
 * per project: LATCHKEY_STRIPE_SECRET_KEY), and a project's own secret key.
 * The domain sees only the `StripeApi` interface, so another implementation
 * can stand in for it.
 */
import Stripe from "stripe";

export interface StripeSettings {
  /** The platform account's secret key; null: no Connect onboarding, only projects' own keys. */
  secretKey: string | null;
  /** The signing secret of the platform's webhook endpoint (Connect events); null: none is accepted. */
  webhookSecret: string | null;
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

export interface StripeCheckout {
  id: string;
  clientSecret: string;
}

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
    throw error;
  }
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
            items: [
              {
                price_data: {
                  currency: request.currency,
                  unit_amount: request.unitAmount,
                  product: product.id,
                  recurring: { interval: request.interval.unit, interval_count: request.interval.count },
                },
                quantity: request.quantity,
              },
            ],
            metadata: request.metadata,
          },
          options,
        );
        const invoice = subscription.latest_invoice;
        const secret = invoice && typeof invoice !== "string" ? invoice.confirmation_secret?.client_secret : undefined;
        return { id: subscription.id, clientSecret: secretOf(secret, "subscription's first invoice") };
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
