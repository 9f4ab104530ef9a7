/**
 * Where Stripe sends the buyer after a card payment (`/purchase/return`):
 * it asks Stripe how the payment went (succeeded, still processing, or the
 * reason it failed) and, once it succeeded, offers the way back to the app's
 * `return_url`, only when the server says that address is on one of the
 * project's trusted domains, so this page never leads a visitor to a place a
 * crafted link names. The product itself is granted by the server when
 * Stripe tells it of the payment, whatever this page shows.
 */
import { useEffect, useState } from "react";
import { useStackApp } from "../provider.tsx";
import { Alert, Card, errorText } from "./parts.tsx";
import { useStripeJs } from "./stripe-js.ts";
import type { PurchaseCardSettings } from "@latchkey/js";

export interface PurchaseReturnPageProps {
  /** `purchase_full_code`: the code the payment was for. */
  fullCode: string;
  /** `payment_intent_client_secret`, added by Stripe. */
  clientSecret: string | undefined;
  /** `return_url`: the app's page to go back to, if trusted. */
  returnUrl?: string | undefined;
  fullPage?: boolean;
}

type Outcome = { kind: "succeeded" } | { kind: "processing" } | { kind: "failed"; message: string };

export function PurchaseReturnPage({ fullCode, clientSecret, returnUrl, fullPage = true }: PurchaseReturnPageProps) {
  const app = useStackApp();
  const [settings, setSettings] = useState<PurchaseCardSettings | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const stripe = useStripeJs(settings);

  useEffect(() => {
    let current = true;
    if (!clientSecret) {
      setOutcome({ kind: "failed", message: "This page was opened without a payment to look up." });
      return;
    }
    app._readPurchaseCardSettings(fullCode, returnUrl).then(
      (read) => {
        if (!current) return;
        if (read.publishableKey) setSettings(read);
        else setOutcome({ kind: "failed", message: "Card payment is not set up for this project." });
      },
      (error: unknown) => current && setOutcome({ kind: "failed", message: errorText(error) }),
    );
    return () => {
      current = false;
    };
  }, [app, fullCode, returnUrl, clientSecret]);

  useEffect(() => {
    if (!stripe || !clientSecret) return;
    let current = true;
    stripe
      .then(async (loaded) => {
        if (!loaded) throw new Error("Stripe could not be loaded.");
        const { paymentIntent, error } = await loaded.retrievePaymentIntent(clientSecret);
        if (error || !paymentIntent) return { kind: "failed" as const, message: error?.message ?? "The payment could not be found." };
        if (paymentIntent.status === "succeeded") return { kind: "succeeded" as const };
        if (paymentIntent.status === "processing") return { kind: "processing" as const };
        const message =
          paymentIntent.last_payment_error?.message ??
          (paymentIntent.status === "canceled" ? "The payment was canceled." : "The payment did not go through. Try another card.");
        return { kind: "failed" as const, message };
      })
      .then(
        (found) => current && setOutcome(found),
        (error: unknown) => current && setOutcome({ kind: "failed", message: errorText(error) }),
      );
    return () => {
      current = false;
    };
  }, [stripe, clientSecret]);

  const back = settings?.returnUrlTrusted && returnUrl ? returnUrl : null;
  let content;
  if (!outcome) {
    content = (
      <Card title="Finishing your purchase" header={null}>
        <p className="lk-muted">Checking the payment with Stripe…</p>
      </Card>
    );
  } else if (outcome.kind === "failed") {
    content = (
      <Card title="Payment failed" header={null}>
        <Alert>{outcome.message}</Alert>
      </Card>
    );
  } else {
    content = (
      <Card title={outcome.kind === "succeeded" ? "Payment succeeded" : "Payment processing"} header={null}>
        <p className="lk-success" role="status">
          {outcome.kind === "succeeded"
            ? "Thank you: your payment went through, and your purchase is being added to your account."
            : "Your payment is processing. Your purchase is added to your account once it goes through."}
        </p>
        {back ? (
          <p>
            <a className="lk-link" href={back}>
              Return to {new URL(back).host}
            </a>
          </p>
        ) : returnUrl ? (
          <p className="lk-muted" role="note">
            The address to return to is not one of this project&apos;s trusted domains, so this page does not lead there.
          </p>
        ) : (
          <p className="lk-muted">You can close this page.</p>
        )}
      </Card>
    );
  }
  return fullPage ? <div className="lk-full-page">{content}</div> : content;
}
