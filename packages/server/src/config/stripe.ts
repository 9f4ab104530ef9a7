/** The operator's Stripe (LATCHKEY_STRIPE_*), checked at start. */
import type { StripeSettings } from "../integrations/stripe/api.ts";
import { StartupError } from "../process/startup-error.ts";

export const STRIPE_API_URL = "https://api.stripe.com";

/**
 * LATCHKEY_STRIPE_SECRET_KEY: the platform account's secret key, whose Connect accounts projects onboard to
 * (none: only projects that set their own key take payments); LATCHKEY_STRIPE_WEBHOOK_SECRET: the signing
 * secret of the platform's Connect webhook endpoint; LATCHKEY_STRIPE_PUBLISHABLE_KEY: the platform's publishable key,
 * which the purchase page loads Stripe.js with for a connected account (none: no card form); LATCHKEY_STRIPE_API_URL: where the API is (Stripe's own
 * unless a stand-in or a proxy is put in front of it).
 */
export function stripeFromEnv(env: NodeJS.ProcessEnv): StripeSettings {
  const secretKey = env.LATCHKEY_STRIPE_SECRET_KEY?.trim() || null;
  const webhookSecret = env.LATCHKEY_STRIPE_WEBHOOK_SECRET?.trim() || null;
  if (webhookSecret && !secretKey)
    throw new StartupError("LATCHKEY_STRIPE_WEBHOOK_SECRET needs LATCHKEY_STRIPE_SECRET_KEY: set it too, or unset it.");
  const publishableKey = env.LATCHKEY_STRIPE_PUBLISHABLE_KEY?.trim() || null;
  if (publishableKey && !secretKey)
    throw new StartupError("LATCHKEY_STRIPE_PUBLISHABLE_KEY needs LATCHKEY_STRIPE_SECRET_KEY: set it too, or unset it.");
  if (publishableKey && !/^pk_[A-Za-z0-9_]+$/.test(publishableKey))
    throw new StartupError("LATCHKEY_STRIPE_PUBLISHABLE_KEY must be a Stripe publishable key (pk_…), not a secret key.");
  const apiUrl = env.LATCHKEY_STRIPE_API_URL?.trim() || STRIPE_API_URL;
  let url: URL | null = null;
  try {
    url = new URL(apiUrl);
  } catch {
    // answered below
  }
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:") || (url.pathname !== "/" && url.pathname !== "")) {
    throw new StartupError(
      `LATCHKEY_STRIPE_API_URL must be an http:// or https:// origin without a path, not ${JSON.stringify(apiUrl)}: e.g. ${STRIPE_API_URL}.`,
    );
  }
  return { secretKey, webhookSecret, publishableKey, apiUrl: url.origin };
}
