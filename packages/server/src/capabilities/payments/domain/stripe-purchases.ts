/**
 * Paying for a purchase code with Stripe (purchase-session):
 * the session checks the code and the purchase as a test-mode purchase does,
 * then, on the project's Stripe account (its connected account, or with its
 * own key), makes the customer's Stripe customer (once per customer and
 * account) and either a payment intent (a one-time price) or a subscription
 * left incomplete until its first invoice is paid (an interval price). What
 * was sold is kept by that Stripe object's id (payment_stripe_checkouts) and
 * the code is used up, as the reference does once Stripe has answered.
 *
 * Nothing is granted until Stripe says it was paid: the webhook handlers
 * here grant the checkout in the event's transaction, keyed by the payment
 * intent or subscription id (payment_purchases.stripe_id), under the
 * customer's lock, so the same payment told by several events (or one
 * delivered twice at once) is one purchase. Later subscription events keep
 * its period, cancel_at_period_end and end as Stripe reports them.
 */
import { StatusError, type Currency } from "@latchkey/shared";
import { and, eq } from "drizzle-orm";
import type { Tenancy } from "../../../db/tenancy.ts";
import { inTenancy } from "../../../db/tenancy.ts";
import type { EventTx } from "../../../events/transaction.ts";
import type { StripeCheckout } from "../../../integrations/stripe/api.ts";
import type { Services } from "../../../services.ts";
import { paymentStripeCheckouts } from "../account-schema.ts";
import { paymentPurchases } from "../schema.ts";
import { ensureCustomerExists, type Customer } from "./customers.ts";
import { paymentsNow } from "./payments-clock.ts";
import { priceOf } from "./product-snapshot.ts";
import { ensurePurchasesAllowed, PAYMENTS_NOT_SET_UP_MESSAGE, projectOfCode } from "./purchase-flow.ts";
import { customerPurchases, grantProductIn, isOwnedAt, lockCustomer, purchaseRefusal } from "./purchases.ts";
import { findPurchaseCode, takePurchaseCode } from "./purchase-codes.ts";
import { stripeAccountOf } from "./stripe-account.ts";
import { chargeCurrency, stripeCurrency, unitAmountIn } from "./charge-currency.ts";
import { accountApi, stripeCall, stripeCustomerOf, stripeInterval } from "./stripe-reach.ts";

/**
 * POST /payments/purchases/purchase-session: the client secret the purchase page pays with. Checks in the
 * order of a test-mode purchase: the code (404), blocked purchases, the Stripe account, the customer, then
 * the price (and the currency asked for), quantity and ownership checks. The session charges in the
 * price's currency (charge-currency.ts), which the purchase then records.
 */
export async function stripePurchaseSession(
  services: Services,
  fullCode: string,
  priceId: string,
  quantity: number,
  askedCurrency: Currency | undefined,
): Promise<string> {
  const { scope, project } = await projectOfCode(services, fullCode);
  const config = project.rendered;
  const code = await findPurchaseCode(services, scope, fullCode, await paymentsNow(services, services.db, scope, config));
  ensurePurchasesAllowed(config);
  const account = await stripeAccountOf(services.db, scope);
  if (!account) throw new StatusError(400, PAYMENTS_NOT_SET_UP_MESSAGE);
  await ensureCustomerExists(services, scope, code.customer);
  const price = priceOf(code.product, priceId);
  if (!price) throw new StatusError(400, "Price not found on product associated with this purchase code");
  const currency = chargeCurrency(price.price, askedCurrency);
  if (quantity !== 1 && !code.product.stackable) throw new StatusError(400, "This product is not stackable; quantity must be 1");
  const now = await paymentsNow(services, services.db, scope, config);
  const owned = (await customerPurchases(services.db, scope, code.customer)).filter((p) => isOwnedAt(p, now));
  purchaseRefusal(config, { customer: code.customer, product: code.product, productId: code.productId ?? undefined }, owned);
  const unitAmount = unitAmountIn(price.price, currency);

  const reach = await accountApi(services, account);
  const stripeCustomer = await stripeCustomerOf(services, scope, account, code.customer, reach);
  const interval = price.price.interval;
  const kind = interval ? ("subscription" as const) : ("one_time" as const);
  const metadata = {
    latchkey_project_id: scope.projectId,
    latchkey_branch_id: scope.branchId,
    latchkey_customer_type: code.customer.type,
    latchkey_customer_id: code.customer.id,
    latchkey_product_id: code.productId ?? "",
    latchkey_price_id: price.id,
    latchkey_quantity: String(quantity),
    latchkey_purchase_code_id: code.id,
    latchkey_purchase_kind: kind,
  };
  const checkout: StripeCheckout = await stripeCall(() =>
    interval
      ? reach.api.createSubscription(
          {
            customer: stripeCustomer,
            currency: stripeCurrency(currency),
            unitAmount,
            quantity,
            interval: stripeInterval(interval),
            productName: code.product.displayName ?? code.productId ?? "Subscription",
            metadata,
          },
          reach.onAccount,
        )
      : reach.api.createPaymentIntent(
          { customer: stripeCustomer, currency: stripeCurrency(currency), amount: unitAmount * quantity, metadata },
          reach.onAccount,
        ),
  );
  // The code is used once Stripe has made what pays for it; a concurrent session that took it first wins (404 here).
  await services.db.transaction(async (tx) => {
    const taken = await takePurchaseCode(tx, scope, fullCode, await paymentsNow(services, tx, scope, config));
    await tx.insert(paymentStripeCheckouts).values({
      ...scope,
      stripeId: checkout.id,
      kind,
      customerType: taken.customer.type,
      customerId: taken.customer.id,
      productId: taken.productId,
      product: taken.product,
      priceId: price.id,
      quantity,
      purchaseCodeId: taken.id,
      currency,
      createdAt: services.clock.date(),
    });
  });
  return checkout.clientSecret;
}

export interface StripePurchaseContext {
  services: Services;
  tx: EventTx;
  tenancy: Tenancy;
}

/** What an event says of the Stripe object behind a purchase. */
export interface StripePurchaseReport {
  /** Paid (or a subscription active): grant it if not yet granted. */
  paid: boolean;
  /** A subscription's current period, as Stripe reports it. */
  period?: { start: Date; end: Date };
  cancelAtPeriodEnd?: boolean;
  /** When it stops being owned (null: not ended); undefined: the event does not say. */
  endedAt?: Date | null;
}

/**
 * Applies what an event says of a payment intent or subscription: grants the checkout it sold (once: the
 * purchase is looked up by the Stripe id under the customer's lock), or updates the purchase granted before.
 * A Stripe object no checkout of this project names (made elsewhere) is left alone.
 */
export async function applyStripePurchaseReport(ctx: StripePurchaseContext, stripeId: string, report: StripePurchaseReport): Promise<void> {
  const { services, tx, tenancy } = ctx;
  const [checkout] = await tx
    .select()
    .from(paymentStripeCheckouts)
    .where(and(inTenancy(paymentStripeCheckouts, tenancy), eq(paymentStripeCheckouts.stripeId, stripeId)));
  if (!checkout) {
    services.logger.info({ projectId: tenancy.projectId, stripeId }, "Stripe event about no purchase session of this project: ignored");
    return;
  }
  const customer: Customer = { type: checkout.customerType, id: checkout.customerId };
  await lockCustomer(tx, tenancy, customer);
  const [existing] = await tx
    .select()
    .from(paymentPurchases)
    .where(and(inTenancy(paymentPurchases, tenancy), eq(paymentPurchases.stripeId, stripeId)));
  if (existing) {
    // Events may arrive out of order: a period older than the one stored is not gone back to.
    const period =
      report.period && existing.currentPeriodStart && report.period.start.getTime() >= existing.currentPeriodStart.getTime()
        ? { currentPeriodStart: report.period.start, currentPeriodEnd: report.period.end }
        : {};
    const changes = {
      ...period,
      ...(report.cancelAtPeriodEnd !== undefined ? { cancelAtPeriodEnd: report.cancelAtPeriodEnd } : {}),
      ...(report.endedAt !== undefined ? { endedAt: report.endedAt } : {}),
    };
    if (Object.keys(changes).length === 0) return;
    await tx
      .update(paymentPurchases)
      .set(changes)
      .where(and(inTenancy(paymentPurchases, tenancy), eq(paymentPurchases.id, existing.id)));
    return;
  }
  if (!report.paid) return;
  const project = await services.projects.get(tenancy.projectId);
  if (!project) return;
  await grantProductIn(services, tx, tenancy, project.rendered, {
    customer,
    product: checkout.product,
    productId: checkout.productId ?? undefined,
    priceId: checkout.priceId,
    quantity: checkout.quantity,
    source: "stripe",
    testMode: false,
    currency: checkout.currency ?? "USD",
    stripe: {
      id: stripeId,
      period: report.period ?? null,
      cancelAtPeriodEnd: report.cancelAtPeriodEnd ?? false,
      endedAt: report.endedAt ?? null,
    },
  });
}
