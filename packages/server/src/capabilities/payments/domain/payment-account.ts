/**
 * Whether the project can take real payments: it has a connected payment
 * (Stripe) account. Purchases outside test mode need one (WIRE-next §5.2).
 */
import type { Tenancy } from "../../../db/tenancy.ts";
import type { Services } from "../../../services.ts";

/**
 * No payment account can be connected yet: the Stripe onboarding and its
 * accounts table come with the Stripe integration, which replaces this
 * function's body with a look-up of that table. Until then every project is
 * without one, so only test-mode purchases can be made.
 */
export function hasPaymentAccount(_services: Services, _scope: Tenancy): Promise<boolean> {
  return Promise.resolve(false);
}
