/**
 * Switching a customer's subscription to another product of its product line
 * (a plan upgrade or downgrade), paid with the card the customer already
 * gave: the Stripe subscription moves to the new price (Stripe charges the
 * prorated difference at once, or the switch is refused), or, from a free
 * include-by-default plan, a new subscription is charged to that card.
 *
 * What the customer owns follows at once: the old purchase ends now and the
 * new one starts now, keeping the Stripe subscription's id and period, so
 * the old product's items stop and the new product's start from the switch
 * (never retroactively). Stripe's later events about the subscription find
 * the new purchase by that id. A subscription stays in the currency it is
 * charged in: a target price without an amount in it is refused.
 */
import { KnownErrors, StatusError, type Currency, type RenderedConfig, type SwitchSubscriptionBody } from "@latchkey/shared";
import { and, eq } from "drizzle-orm";
import { inTenancy, type Tenancy } from "../../../db/tenancy.ts";
import { StripeCardDeclined, type StripeSubscriptionState } from "../../../integrations/stripe/api.ts";
import type { Services } from "../../../services.ts";
import { paymentStripeCheckouts } from "../account-schema.ts";
import { paymentPurchases, type PaymentPurchaseRow } from "../schema.ts";
import type { Customer } from "./customers.ts";
import { paymentsNow } from "./payments-clock.ts";
import { hasIntervalPrice, type ProductSnapshot } from "./product-snapshot.ts";
import { PAYMENTS_NOT_SET_UP_MESSAGE } from "./purchase-flow.ts";
import { customerPurchases, grantProductIn, isOwnedAt, lockCustomer } from "./purchases.ts";
import { stripeAccountOf } from "./stripe-account.ts";
import { chargeCurrency, stripeCurrency, unitAmountIn } from "./charge-currency.ts";
import { accountApi, knownStripeCustomer, stripeCall, stripeInterval } from "./stripe-reach.ts";

const CANNOT_SWITCH = "This subscription cannot be switched.";
const NO_TARGET_PRICE = "Price not found for target product.";

/** The configured products of a switch, checked against each other in the API's order. */
function checkProducts(
  config: RenderedConfig,
  customer: Customer,
  body: SwitchSubscriptionBody,
): { from: ProductSnapshot; to: ProductSnapshot } {
  const products = config.payments.products;
  const from = Object.hasOwn(products, body.from_product_id) ? products[body.from_product_id] : undefined;
  const to = Object.hasOwn(products, body.to_product_id) ? products[body.to_product_id] : undefined;
  if (!from || !to) throw new StatusError(400, "Product not found.");
  if (from.customerType !== customer.type || to.customerType !== customer.type)
    throw new StatusError(400, "Product customer type does not match.");
  if (!from.productLineId || from.productLineId !== to.productLineId)
    throw new StatusError(400, "Products must be in the same product line to switch.");
  if (body.from_product_id === body.to_product_id) throw new StatusError(400, "Product is already active.");
  if (to.isAddOnTo && Object.keys(to.isAddOnTo).length > 0)
    throw new StatusError(400, "Add-on products cannot be selected for plan switching.");
  if (to.prices === "include-by-default") throw new StatusError(400, "Include-by-default products cannot be selected for plan switching.");
  if (from.prices !== "include-by-default" && !hasIntervalPrice(from)) throw new StatusError(400, CANNOT_SWITCH);
  return { from, to };
}

/**
 * The target's renewing price (the one named, else its first) and the currency it is charged in: the running
 * subscription's (the target must have an amount in it), or from a free plan the price's own (charge-currency.ts).
 */
function targetPrice(to: ProductSnapshot, priceId: string | undefined, current: PaymentPurchaseRow | null) {
  const renewing = to.prices === "include-by-default" ? [] : Object.entries(to.prices).filter(([, price]) => price.interval);
  if (renewing.length === 0) throw new StatusError(400, NO_TARGET_PRICE);
  const [id, price] = (priceId === undefined ? renewing[0] : renewing.find(([candidate]) => candidate === priceId)) ?? [];
  if (!id || !price?.interval) throw new StatusError(400, NO_TARGET_PRICE);
  const currency = current ? (current.currency ?? "USD") : chargeCurrency(price, undefined);
  if (price[currency] === undefined) throw new StatusError(400, missingCurrencyMessage(currency));
  return { id, price, interval: price.interval, currency };
}

function missingCurrencyMessage(currency: Currency): string {
  if (currency === "USD") return "Target price must include a USD amount.";
  return `Target price must include an amount in ${currency}, the currency this subscription is charged in.`;
}

/** The customer's running Stripe subscription to `productId` (the newest), or null. */
function runningSubscription(owned: PaymentPurchaseRow[], productId: string): PaymentPurchaseRow | null {
  const matching = owned.filter((p) => p.productId === productId && p.kind === "subscription");
  return matching.at(-1) ?? null;
}

/** The switch, after the route's checks (purchases allowed, the caller's access, the customer). */
export async function switchSubscription(
  services: Services,
  scope: Tenancy,
  config: RenderedConfig,
  customer: Customer,
  body: SwitchSubscriptionBody,
): Promise<void> {
  const { from, to } = checkProducts(config, customer, body);
  const now = await paymentsNow(services, services.db, scope, config);
  const owned = (await customerPurchases(services.db, scope, customer)).filter((p) => isOwnedAt(p, now));
  const fromFree = from.prices === "include-by-default";
  const current = fromFree ? null : runningSubscription(owned, body.from_product_id);
  if (!fromFree && (!current || current.source !== "stripe" || !current.stripeId)) throw new StatusError(400, CANNOT_SWITCH);
  const price = targetPrice(to, body.price_id, current);
  const quantity = body.quantity ?? current?.quantity ?? 1;
  if (body.quantity !== undefined && quantity !== 1 && !to.stackable)
    throw new StatusError(400, "This product is not stackable; quantity must be 1");

  const account = await stripeAccountOf(services.db, scope);
  if (!account) throw new StatusError(400, PAYMENTS_NOT_SET_UP_MESSAGE);
  const reach = await accountApi(services, account);
  const stripeCustomer = await knownStripeCustomer(services, scope, account, customer);
  const card = stripeCustomer
    ? await stripeCall(() => reach.api.defaultCard(stripeCustomer, current?.stripeId ?? null, reach.onAccount))
    : null;
  if (!stripeCustomer || !card) throw new KnownErrors.DefaultPaymentMethodRequired(customer.type, customer.id);

  const request = {
    currency: stripeCurrency(price.currency),
    unitAmount: unitAmountIn(price.price, price.currency),
    quantity,
    interval: stripeInterval(price.interval),
    productName: to.displayName ?? body.to_product_id,
    metadata: {
      latchkey_project_id: scope.projectId,
      latchkey_branch_id: scope.branchId,
      latchkey_customer_type: customer.type,
      latchkey_customer_id: customer.id,
      latchkey_product_id: body.to_product_id,
      latchkey_price_id: price.id,
      latchkey_quantity: String(quantity),
      latchkey_purchase_kind: "subscription",
    },
    paymentMethod: card,
  };
  let state: StripeSubscriptionState;
  try {
    state = await stripeCall(() =>
      current
        ? reach.api.changeSubscription(current.stripeId!, request, reach.onAccount)
        : reach.api.createChargedSubscription({ ...request, customer: stripeCustomer }, reach.onAccount),
    );
  } catch (error) {
    if (error instanceof StripeCardDeclined) throw new StatusError(400, `The customer's card was declined: ${error.message}`);
    throw error;
  }
  await recordSwitch(services, scope, config, {
    customer,
    to,
    toProductId: body.to_product_id,
    priceId: price.id,
    currency: price.currency,
    quantity,
    current,
    state,
  });
}

interface SwitchRecord {
  customer: Customer;
  to: ProductSnapshot;
  toProductId: string;
  priceId: string;
  currency: Currency;
  quantity: number;
  /** The purchase switched from; null from an include-by-default product. */
  current: PaymentPurchaseRow | null;
  state: StripeSubscriptionState;
}

/** The old purchase ends now and the new one, on the same Stripe subscription, starts now. */
async function recordSwitch(services: Services, scope: Tenancy, config: RenderedConfig, record: SwitchRecord): Promise<void> {
  const { customer, to, toProductId, priceId, currency, quantity, current, state } = record;
  await services.events.transaction(services.db, async (tx) => {
    await lockCustomer(tx, scope, customer);
    if (current) {
      // The id moves to the new purchase (it names one purchase); granting below ends the old one now.
      await tx
        .update(paymentPurchases)
        .set({ stripeId: null })
        .where(and(inTenancy(paymentPurchases, scope), eq(paymentPurchases.id, current.id)));
    }
    // What was sold on this subscription is now the new product: a later event granting it grants this.
    const checkout = { productId: toProductId, product: to, priceId, quantity, currency };
    await tx
      .insert(paymentStripeCheckouts)
      .values({
        ...scope,
        ...checkout,
        stripeId: state.id,
        kind: "subscription",
        customerType: customer.type,
        customerId: customer.id,
        purchaseCodeId: null,
        createdAt: services.clock.date(),
      })
      .onConflictDoUpdate({
        target: [paymentStripeCheckouts.projectId, paymentStripeCheckouts.branchId, paymentStripeCheckouts.stripeId],
        set: checkout,
      });
    await grantProductIn(services, tx, scope, config, {
      customer,
      product: to,
      productId: toProductId,
      priceId,
      quantity,
      source: "stripe",
      testMode: false,
      currency,
      // A subscription cancelled at its period's end stays so after the switch (Stripe keeps the flag).
      stripe: {
        id: state.id,
        period: state.period,
        cancelAtPeriodEnd: state.cancelAtPeriodEnd,
        endedAt: state.cancelAtPeriodEnd && state.period ? state.period.end : null,
      },
    });
  });
}
