/**
 * How a page loads Stripe.js to take a card on the project's Stripe account
 * (the purchase page, a customer's billing): a connected account is reached
 * with the operator's platform publishable key (LATCHKEY_STRIPE_PUBLISHABLE_KEY)
 * acting on that account; an own-key account with the publishable key kept
 * sealed beside its secret key, on the key's own account.
 */
import type { StripeCardFormJson } from "@latchkey/shared";
import type { Services } from "../../../services.ts";
import type { PaymentStripeAccountRow } from "../account-schema.ts";
import { ownSecretsOf } from "./stripe-account.ts";

export async function stripeCardForm(services: Services, account: PaymentStripeAccountRow | null): Promise<StripeCardFormJson> {
  if (!account) return { publishable_key: null, stripe_account_id: null };
  if (account.kind === "own_key")
    return { publishable_key: (await ownSecretsOf(services, account)).publishableKey, stripe_account_id: null };
  return { publishable_key: services.config.stripe.publishableKey ?? null, stripe_account_id: account.stripeAccountId };
}
