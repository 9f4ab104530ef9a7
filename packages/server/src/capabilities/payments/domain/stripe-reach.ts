/**
 * Reaching a project's Stripe account: through the platform (its connected
 * account) or with the project's own key; the customer's Stripe customer on
 * it; and how intervals are written for Stripe (amounts: charge-currency.ts). Shared by the
 * purchase page's sessions (stripe-purchases.ts) and subscription switches
 * (subscription-switch.ts).
 */
import { StatusError, type PaymentInterval } from "@latchkey/shared";
import { and, eq } from "drizzle-orm";
import { inTenancy, type Tenancy } from "../../../db/tenancy.ts";
import { StripeRequestRefused, StripeUnavailable, type StripeApi } from "../../../integrations/stripe/api.ts";
import type { Services } from "../../../services.ts";
import { paymentStripeCustomers, type PaymentStripeAccountRow } from "../account-schema.ts";
import type { Customer } from "./customers.ts";
import { ownSecretsOf } from "./stripe-account.ts";

const UNAVAILABLE = "Stripe did not answer as expected. Please try again in a moment.";
const NO_PLATFORM =
  "Payments through Stripe Connect are not available on this server (its operator has not set LATCHKEY_STRIPE_SECRET_KEY).";

export interface StripeReach {
  api: StripeApi;
  /** The connected account the calls act on; undefined: the own key's account. */
  onAccount: string | undefined;
}

/** The calls that reach the account. */
export async function accountApi(services: Services, row: PaymentStripeAccountRow): Promise<StripeReach> {
  if (row.kind === "own_key") return { api: services.stripe.withKey((await ownSecretsOf(services, row)).secretKey), onAccount: undefined };
  const platform = services.stripe.platform;
  if (!platform) throw new StatusError(400, NO_PLATFORM);
  return { api: platform, onAccount: row.stripeAccountId };
}

/**
 * Runs a Stripe call: Stripe unreachable or failing on its side answers 502, a request Stripe refused as invalid
 * answers 400 with Stripe's words, both fit for the app to show.
 */
export async function stripeCall<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof StripeUnavailable) throw new StatusError(502, UNAVAILABLE);
    if (error instanceof StripeRequestRefused) throw new StatusError(400, `Stripe refused the request: ${error.message}`);
    throw error;
  }
}

function stripeCustomerWhere(tenancy: Tenancy, account: PaymentStripeAccountRow, customer: Customer) {
  const t = paymentStripeCustomers;
  return and(
    inTenancy(t, tenancy),
    eq(t.stripeAccountId, account.stripeAccountId),
    eq(t.customerType, customer.type),
    eq(t.customerId, customer.id),
  );
}

/** The customer's Stripe customer on the account, if a purchase made one. */
export async function knownStripeCustomer(
  services: Services,
  tenancy: Tenancy,
  account: PaymentStripeAccountRow,
  customer: Customer,
): Promise<string | null> {
  const t = paymentStripeCustomers;
  const [known] = await services.db
    .select({ id: t.stripeCustomerId })
    .from(t)
    .where(stripeCustomerWhere(tenancy, account, customer));
  return known?.id ?? null;
}

/** The customer's Stripe customer on the account, made on the first purchase and reused after. */
export async function stripeCustomerOf(
  services: Services,
  tenancy: Tenancy,
  account: PaymentStripeAccountRow,
  customer: Customer,
  reach: StripeReach,
): Promise<string> {
  const known = await knownStripeCustomer(services, tenancy, account, customer);
  if (known) return known;
  // Two first sessions at once ask with one idempotency key, and Stripe makes one customer for both.
  const made = await stripeCall(() =>
    reach.api.createCustomer(
      {
        metadata: { latchkey_project_id: tenancy.projectId, latchkey_customer_type: customer.type, latchkey_customer_id: customer.id },
        idempotencyKey: `latchkey-customer-${tenancy.projectId}-${tenancy.branchId}-${customer.type}-${customer.id}`,
      },
      reach.onAccount,
    ),
  );
  await services.db
    .insert(paymentStripeCustomers)
    .values({
      ...tenancy,
      stripeAccountId: account.stripeAccountId,
      customerType: customer.type,
      customerId: customer.id,
      stripeCustomerId: made,
      createdAt: services.clock.date(),
    })
    .onConflictDoNothing();
  return (await knownStripeCustomer(services, tenancy, account, customer))!;
}

export function stripeInterval([count, unit]: PaymentInterval) {
  return { count, unit };
}
