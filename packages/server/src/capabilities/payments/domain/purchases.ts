/**
 * What a customer owns (purchases, schema.ts) and the two ways it changes
 * here: a grant (the API, or a test-mode purchase) and a cancellation
 * (cancellations.ts).
 *
 * A purchase is owned from its start until `ended_at` (never, for a one-time
 * purchase or a subscription nobody cancelled). A subscription of ours renews
 * by itself every interval of its price: its current period is computed from
 * the first, not stored (Stripe's are stored as Stripe reports them).
 *
 * A grant is decided under a per-customer lock, in the API's order of checks,
 * so of two concurrent grants of a product that is not stackable exactly one
 * succeeds; it records `payments.product_granted` in its transaction.
 */
import { KnownErrors, StatusError, type Currency, type OwnedProductJson, type RenderedConfig } from "@latchkey/shared";
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { DbOrTx } from "../../../db/connect.ts";
import { inTenancy, type Tenancy } from "../../../db/tenancy.ts";
import { record, type EventTx } from "../../../events/transaction.ts";
import type { Services } from "../../../services.ts";
import { paymentPurchases, type PaymentPurchaseRow } from "../schema.ts";
import type { Customer } from "./customers.ts";
import { customerSince, defaultProducts } from "./default-products.ts";
import { paymentsNow } from "./payments-clock.ts";
import { hasIntervalPrice, intervalMs, priceOf, productView, type ProductSnapshot } from "./product-snapshot.ts";

export type PurchaseSource = PaymentPurchaseRow["source"];

function customerIs(scope: Tenancy, customer: Customer) {
  return and(
    inTenancy(paymentPurchases, scope),
    eq(paymentPurchases.customerType, customer.type),
    eq(paymentPurchases.customerId, customer.id),
  );
}

/** Every purchase the customer ever made, oldest first (ended ones too: their included items may still count). */
export function customerPurchases(db: DbOrTx, scope: Tenancy, customer: Customer): Promise<PaymentPurchaseRow[]> {
  return db
    .select()
    .from(paymentPurchases)
    .where(customerIs(scope, customer))
    .orderBy(asc(paymentPurchases.createdAt), asc(paymentPurchases.id));
}

export function isOwnedAt(purchase: PaymentPurchaseRow, now: Date): boolean {
  return purchase.createdAt.getTime() <= now.getTime() && (purchase.endedAt === null || now.getTime() < purchase.endedAt.getTime());
}

/** A subscription's period at `now`: the stored one for Stripe's; ours roll forward from the first, one period after another. */
export function periodAt(purchase: PaymentPurchaseRow, now: Date): { start: Date; end: Date } | null {
  const { currentPeriodStart: start, currentPeriodEnd: end } = purchase;
  if (purchase.kind !== "subscription" || !start || !end) return null;
  const length = end.getTime() - start.getTime();
  if (purchase.source === "stripe" || length <= 0 || now.getTime() < end.getTime()) return { start, end };
  const passed = Math.floor((now.getTime() - start.getTime()) / length);
  const periodStart = start.getTime() + passed * length;
  return { start: new Date(periodStart), end: new Date(periodStart + length) };
}

/** A product line that exists in the config, or none. */
function lineOf(config: RenderedConfig, product: ProductSnapshot): string | null {
  const lineId = product.productLineId;
  return lineId !== undefined && Object.hasOwn(config.payments.productLines, lineId) ? lineId : null;
}

function addOnBases(product: ProductSnapshot): string[] {
  return product.isAddOnTo ? Object.keys(product.isAddOnTo) : [];
}

/** Owned purchases of configured products in the product's line, other than the ones it is an add-on to. */
function sameLinePurchases(config: RenderedConfig, product: ProductSnapshot, owned: PaymentPurchaseRow[]): PaymentPurchaseRow[] {
  const lineId = lineOf(config, product);
  if (lineId === null) return [];
  const bases = addOnBases(product);
  return owned.filter((p) => p.productId !== null && p.product.productLineId === lineId && !bases.includes(p.productId));
}

export interface GrantRequest {
  customer: Customer;
  product: ProductSnapshot;
  /** The configured product's id; undefined for an inline one. */
  productId: string | undefined;
  priceId: string | undefined;
  quantity: number;
  source: PurchaseSource;
  testMode: boolean;
  /** The currency its price was paid (or, in test mode, taken) in; none for a grant. */
  currency?: Currency;
  /**
   * A purchase Stripe was paid for: it is granted whatever the customer owns by now (the money is taken;
   * a refusal would only make Stripe deliver the event again), with Stripe's id and period.
   */
  stripe?: {
    id: string;
    period: { start: Date; end: Date } | null;
    cancelAtPeriodEnd: boolean;
    endedAt: Date | null;
  };
}

/**
 * The API's refusals after the price and quantity (a purchase Stripe was paid for is never refused);
 * answers the owned purchases of the product's line, whose subscriptions the grant replaces.
 */
export function purchaseRefusal(
  config: RenderedConfig,
  grant: Pick<GrantRequest, "customer" | "product" | "productId" | "stripe">,
  owned: PaymentPurchaseRow[],
): PaymentPurchaseRow[] {
  const { customer, product, productId } = grant;
  const sameLine = sameLinePurchases(config, product, owned);
  if (grant.stripe) return sameLine;
  if (productId !== undefined && !product.stackable && owned.some((p) => p.productId === productId)) {
    throw new KnownErrors.ProductAlreadyGranted(productId, customer.id);
  }
  const bases = addOnBases(product);
  if (product.isAddOnTo && !owned.some((p) => p.productId !== null && bases.includes(p.productId))) {
    throw new StatusError(400, "This product is an add-on to a product that the customer does not have");
  }
  if (sameLine.some((p) => p.kind === "one_time"))
    throw new StatusError(400, "Customer already has a one-time purchase in this product line");
  return sameLine;
}

export interface Granted {
  purchaseId: string;
  kind: PaymentPurchaseRow["kind"];
}

/** Grants in a transaction of its own (the customer must have been found to exist). */
export function grantProduct(services: Services, scope: Tenancy, config: RenderedConfig, grant: GrantRequest): Promise<Granted> {
  return services.events.transaction(services.db, (tx) => grantProductIn(services, tx, scope, config, grant));
}

/**
 * Grants in `tx` (a test-mode purchase takes its code in the same one). The
 * checks after the customer's, in the API's order of checks: price, stackable,
 * already owned, add-on base, product line (an owned one-time purchase of
 * the line refuses; owned subscriptions of the line end now).
 */
export async function grantProductIn(
  services: Services,
  tx: EventTx,
  scope: Tenancy,
  config: RenderedConfig,
  grant: GrantRequest,
): Promise<Granted> {
  const { customer, product, productId, quantity } = grant;
  await lockCustomer(tx, scope, customer);
  const now = await paymentsNow(services, tx, scope, config);
  const price = priceOf(product, grant.priceId);
  if (quantity !== 1 && !product.stackable && !grant.stripe)
    throw new StatusError(400, "This product is not stackable; quantity must be 1");
  const owned = (await customerPurchases(tx, scope, customer)).filter((p) => isOwnedAt(p, now));
  const sameLine = purchaseRefusal(config, grant, owned);
  const replaced = sameLine.filter((p) => p.kind === "subscription").map((p) => p.id);
  if (replaced.length > 0) {
    await tx
      .update(paymentPurchases)
      .set({ endedAt: now })
      .where(and(inTenancy(paymentPurchases, scope), inArray(paymentPurchases.id, replaced)));
  }

  const interval = price?.price.interval;
  const kind = interval ? "subscription" : "one_time";
  const [row] = await tx
    .insert(paymentPurchases)
    .values({
      ...scope,
      customerType: customer.type,
      customerId: customer.id,
      productId: productId ?? null,
      product,
      priceId: price?.id ?? null,
      quantity,
      kind,
      currentPeriodStart: interval ? (grant.stripe?.period?.start ?? now) : null,
      currentPeriodEnd: interval ? (grant.stripe?.period?.end ?? new Date(now.getTime() + intervalMs(interval))) : null,
      cancelAtPeriodEnd: grant.stripe?.cancelAtPeriodEnd ?? false,
      endedAt: grant.stripe?.endedAt ?? null,
      testMode: grant.testMode,
      source: grant.source,
      stripeId: grant.stripe?.id ?? null,
      currency: grant.currency ?? null,
      createdAt: now,
    })
    .returning({ id: paymentPurchases.id });
  await record(tx, {
    type: "payments.product_granted",
    projectId: scope.projectId,
    branchId: scope.branchId,
    data: {
      id: row!.id,
      customer_type: customer.type,
      customer_id: customer.id,
      product_id: productId ?? null,
      quantity,
      type: kind,
      source: grant.source,
    },
  });
  return { purchaseId: row!.id, kind };
}

/** One grant or cancellation at a time per customer: what it checks is what it decides on. */
export async function lockCustomer(tx: EventTx, scope: Tenancy, customer: Customer): Promise<void> {
  await tx.execute(
    sql`SELECT pg_advisory_xact_lock(hashtextextended(${JSON.stringify(["purchases", scope.projectId, scope.branchId, customer.type, customer.id])}, 0))`,
  );
}

/**
 * Cancels the customer's subscriptions to a product (or the one named): each
 * stays owned until the end of the period it is in, then ends. A one-time
 * purchase cannot be cancelled.
 */
export interface OwnedProductEntry {
  /** The purchase's id: the list's cursor. */
  cursor: string;
  item: OwnedProductJson;
}

/**
 * The customer's owned products, as GET /payments/products lists them: the
 * default products they own now (default-products.ts), then their purchases,
 * oldest first. A cancelled subscription of ours is listed, until its period
 * ends, as a one-time purchase without subscription.
 * Server-only products are left out for clients.
 */
export async function ownedProductEntries(
  services: Services,
  scope: Tenancy,
  config: RenderedConfig,
  customer: Customer,
  forClient: boolean,
): Promise<OwnedProductEntry[]> {
  const now = await paymentsNow(services, services.db, scope, config);
  const purchases = await customerPurchases(services.db, scope, customer);
  const owned = purchases.filter((p) => isOwnedAt(p, now));
  const since = await customerSince(services, scope, customer);
  // Default products first: they are owned from the customer's start. Their cursor names the product, never a purchase id.
  const byDefault = (since === null ? [] : defaultProducts(config, customer, since, purchases, now))
    .filter(({ product, spans }) => spans.at(-1)?.end === null && !(forClient && product.serverOnly))
    .map(({ productId, product }) => ({
      cursor: `default:${productId}`,
      item: {
        id: productId,
        quantity: 1,
        product: productView(product, productId),
        type: "one_time",
        subscription: null,
      } satisfies OwnedProductJson,
    }));
  return [...byDefault, ...ownedPurchaseEntries(config, customer, owned, now, forClient)];
}

function ownedPurchaseEntries(
  config: RenderedConfig,
  customer: Customer,
  owned: PaymentPurchaseRow[],
  now: Date,
  forClient: boolean,
): OwnedProductEntry[] {
  return owned
    .filter((p) => !(forClient && p.product.serverOnly))
    .map((purchase) => {
      const running = purchase.kind === "subscription" && !purchase.cancelAtPeriodEnd;
      const period = running ? periodAt(purchase, now) : null;
      const lineId = lineOf(config, purchase.product);
      const item: OwnedProductJson = {
        id: purchase.productId,
        quantity: purchase.quantity,
        product: productView(purchase.product, purchase.productId),
        type: running ? "subscription" : "one_time",
        subscription: running
          ? {
              subscription_id: purchase.id,
              current_period_end: period ? period.end.toISOString() : null,
              cancel_at_period_end: false,
              is_cancelable: purchase.productId !== null,
            }
          : null,
      };
      if (running && purchase.productId !== null && lineId !== null) {
        item.switch_options = switchOptions(config, customer, lineId, purchase.productId, forClient);
      }
      return { cursor: purchase.id, item };
    });
}

/** The line's other subscription products a subscription could move to, with their renewing prices only. */
function switchOptions(config: RenderedConfig, customer: Customer, lineId: string, currentId: string, forClient: boolean) {
  const options: NonNullable<OwnedProductJson["switch_options"]> = [];
  for (const [productId, product] of Object.entries(config.payments.products)) {
    if (productId === currentId || product.productLineId !== lineId || product.customerType !== customer.type) continue;
    if ((forClient && product.serverOnly) || product.isAddOnTo || !hasIntervalPrice(product)) continue;
    const view = productView(product, productId);
    view.prices = Object.fromEntries(Object.entries(view.prices).filter(([, price]) => price.interval !== undefined));
    options.push({ product_id: productId, product: view });
  }
  return options;
}

/** For validate-code: whether the customer already owns the (non-stackable) product, and what a subscription to it would replace. */
export async function purchaseContext(
  services: Services,
  scope: Tenancy,
  config: RenderedConfig,
  customer: Customer,
  product: ProductSnapshot,
  productId: string | null,
): Promise<{ alreadyOwned: boolean; conflicting: { product_id: string; display_name: string }[] }> {
  const now = await paymentsNow(services, services.db, scope, config);
  const owned = (await customerPurchases(services.db, scope, customer)).filter((p) => isOwnedAt(p, now));
  const alreadyOwned = productId !== null && !product.stackable && owned.some((p) => p.productId === productId);
  const conflicting = hasIntervalPrice(product)
    ? sameLinePurchases(config, product, owned)
        .filter((p) => p.kind === "subscription")
        .map((p) => ({ product_id: p.productId!, display_name: p.product.displayName ?? p.productId! }))
    : [];
  return { alreadyOwned, conflicting };
}
