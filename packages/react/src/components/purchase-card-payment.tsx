/**
 * The purchase page's card form: Stripe's Payment Element, in deferred-intent
 * mode (nothing is made at Stripe until the buyer pays), and Pay. Pay checks
 * the form with Stripe, asks the server for the payment's client secret (a
 * payment intent, or a subscription's first invoice), then confirms it; Stripe
 * sends the browser on to the return page (purchase-return-page.tsx).
 *
 * Stripe.js is loaded from js.stripe.com only when this form shows
 * (stripe-js.ts), with the publishable key and account the server names for
 * the code (card-settings).
 */
import { CURRENCIES, type Currency, type PurchaseCardSettings, type PurchaseCodeInfo } from "@latchkey/js";
import { Elements, PaymentElement, useElements, useStripe } from "@stripe/react-stripe-js";
import { useEffect, useRef, useState } from "react";
import { useStackApp } from "../provider.tsx";
import { Alert, errorText, useAction } from "./parts.tsx";
import { useStripeJs } from "./stripe-js.ts";

type Price = PurchaseCodeInfo["product"]["prices"][string];

/** The return page's path on this origin; Stripe adds `payment_intent_client_secret` (and more) to it. */
export const PURCHASE_RETURN_PATH = "/purchase/return";

export interface CardPaymentProps {
  fullCode: string;
  returnUrl: string | undefined;
  price: Price;
  priceId: string;
  /** The currency the payment is in: one of the price's. */
  currency: Currency;
  /** The buyer could choose the currency: the server is told which (otherwise it charges its default, the same). */
  askCurrency: boolean;
  quantity: number;
  /** The customer already owns the product: Pay stays disabled. */
  disabled: boolean;
  /**
   * The payment now exists at this price, currency and quantity (making it used the code up): the page keeps
   * them from here on, since another would need a payment this code can no longer make.
   */
  onStarted: () => void;
}

/** What the server says of taking a card for the code (Stripe.js is loaded from it: stripe-js.ts). */
function useStripeSettings(fullCode: string, returnUrl: string | undefined) {
  const app = useStackApp();
  const [state, setState] = useState<{ settings: PurchaseCardSettings | null; error: string | null }>({ settings: null, error: null });
  useEffect(() => {
    let current = true;
    app._readPurchaseCardSettings(fullCode, returnUrl).then(
      (settings) => current && setState({ settings, error: null }),
      (error: unknown) => current && setState({ settings: null, error: errorText(error) }),
    );
    return () => {
      current = false;
    };
  }, [app, fullCode, returnUrl]);
  return state;
}

export function CardPayment(props: CardPaymentProps) {
  const { settings, error } = useStripeSettings(props.fullCode, props.returnUrl);
  const stripe = useStripeJs(settings);
  const amount = props.price[props.currency];
  if (error) return <Alert>{error}</Alert>;
  if (!settings) return <p className="lk-muted">Loading the card form…</p>;
  if (!stripe || amount === undefined) {
    return (
      <p className="lk-muted" role="note">
        Card payment is not set up for this project: this purchase cannot be completed here.
      </p>
    );
  }
  // Stripe takes minor units (cents; yen have none) and lower-case currency codes.
  const options = {
    mode: props.price.interval ? ("subscription" as const) : ("payment" as const),
    currency: props.currency.toLowerCase(),
    amount: Math.round(Number(amount) * 10 ** CURRENCIES[props.currency]) * props.quantity,
  };
  return (
    // A new currency is a new payment: the form starts again with it.
    <Elements key={props.currency} stripe={stripe} options={options}>
      <PayForm {...props} stripeAccountId={settings.stripeAccountId} />
    </Elements>
  );
}

function PayForm({
  fullCode,
  returnUrl,
  priceId,
  currency,
  askCurrency,
  quantity,
  disabled,
  onStarted,
  stripeAccountId,
}: CardPaymentProps & { stripeAccountId: string | null }) {
  const app = useStackApp();
  const stripe = useStripe();
  const elements = useElements();
  const [ready, setReady] = useState(false);
  // A declined card leaves the payment to be confirmed again with another: the code was used up making it.
  const clientSecret = useRef<string | null>(null);
  const pay = useAction(async () => {
    if (!stripe || !elements) return;
    const checked = await elements.submit();
    if (checked.error) return checked.error.message ?? "Check the card details.";
    if (clientSecret.current === null) {
      clientSecret.current = await app._startCardPurchase({ fullCode, priceId, quantity, ...(askCurrency ? { currency } : {}) });
      onStarted();
    }
    const confirmed = await stripe.confirmPayment({
      elements,
      clientSecret: clientSecret.current,
      confirmParams: { return_url: returnPageUrl(fullCode, stripeAccountId, returnUrl) },
    });
    // Only a failure comes back here: a confirmed payment has sent the browser to the return page.
    return confirmed.error.message ?? "The payment did not go through.";
  });
  return (
    <form
      className="lk-purchase-card"
      onSubmit={(event) => {
        event.preventDefault();
        void pay.run();
      }}
    >
      <PaymentElement onReady={() => setReady(true)} />
      <Alert>{pay.error}</Alert>
      <div className="lk-actions">
        <button type="submit" className="lk-button" disabled={disabled || !ready || !stripe || !elements || pay.busy}>
          Pay
        </button>
      </div>
    </form>
  );
}

function returnPageUrl(fullCode: string, stripeAccountId: string | null, returnUrl: string | undefined): string {
  const url = new URL(PURCHASE_RETURN_PATH, window.location.origin);
  if (stripeAccountId) url.searchParams.set("stripe_account_id", stripeAccountId);
  url.searchParams.set("purchase_full_code", fullCode);
  if (returnUrl !== undefined) url.searchParams.set("return_url", returnUrl);
  return url.toString();
}
