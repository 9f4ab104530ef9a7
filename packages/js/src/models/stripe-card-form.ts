/** How a page loads Stripe.js to take a card on a project's Stripe account (the purchase page, billing). */
import type { StripeCardFormJson } from "@latchkey/shared/api/index";

export interface StripeCardForm {
  /** Null: the project has no Stripe account or gave no publishable key, so no card can be taken. */
  readonly publishableKey: string | null;
  /** The connected account Stripe.js acts on (`stripeAccount`); null for a project's own Stripe account. */
  readonly stripeAccountId: string | null;
}

export function stripeCardFormFromJson(json: StripeCardFormJson): StripeCardForm {
  return { publishableKey: json.publishable_key, stripeAccountId: json.stripe_account_id };
}
