/**
 * Stripe.js for the pages that take a card (purchase, billing), loaded from
 * js.stripe.com only when such a form shows, with the publishable key and
 * account the server names.
 */
import type { StripeCardForm } from "@latchkey/js";
import type { Stripe } from "@stripe/stripe-js";
// The `pure` entry loads Stripe.js only when called (the main one loads it on import); the package has no
// export map, so it is named by file.
import { loadStripe } from "@stripe/stripe-js/dist/pure.mjs";
import { useMemo } from "react";

/** One Stripe object per key and account for the page's life (loadStripe loads the script once, but makes one per call). */
const loaded = new Map<string, Promise<Stripe | null>>();

function stripeFor(key: string, account: string | null): Promise<Stripe | null> {
  const id = `${key} ${account ?? ""}`;
  const known = loaded.get(id);
  if (known) return known;
  const stripe = loadStripe(key, account ? { stripeAccount: account } : undefined);
  loaded.set(id, stripe);
  // A failed load (offline, blocked) is tried again the next time a form shows.
  stripe.catch(() => loaded.delete(id));
  return stripe;
}

/** Stripe.js for the key and account the server named (null until known, or when the project gave no key). */
export function useStripeJs(form: StripeCardForm | null): Promise<Stripe | null> | null {
  const key = form?.publishableKey ?? null;
  const account = form?.stripeAccountId ?? null;
  return useMemo(() => (key ? stripeFor(key, account) : null), [key, account]);
}
