/**
 * Reading and changing a customer's quantity of an item. The item must be
 * in the project's config (`payments.items.<id>`) and be for the customer's
 * type; the quantity is the ledger's (ledger.ts). A change that must not
 * take the quantity below zero is decided under a per-customer-and-item
 * lock, so of many concurrent removals exactly those that fit succeed.
 */
import { KnownErrors, StatusError, type ItemJson, type UpdateItemQuantityBody } from "@latchkey/shared";
import { and, asc, eq, sql } from "drizzle-orm";
import type { DbOrTx } from "../../../db/connect.ts";
import { inTenancy, type Tenancy } from "../../../db/tenancy.ts";
import type { RenderedConfig } from "@latchkey/shared";
import type { Services } from "../../../services.ts";
import { paymentItemChanges, type PaymentItemChangeRow } from "../schema.ts";
import type { Customer } from "./customers.ts";
import { customerSince, defaultProducts } from "./default-products.ts";
import { includedItemEntries } from "./included-items.ts";
import { quantityAt, type LedgerEntry } from "./ledger.ts";
import { paymentsNow } from "./payments-clock.ts";
import { customerPurchases } from "./purchases.ts";

type ItemConfig = RenderedConfig["payments"]["items"][string];

/** The item's config, after the checks every item route makes (unknown item, then the customer's type). */
export function itemConfigFor(config: RenderedConfig, itemId: string, customer: Customer): ItemConfig {
  const item = Object.hasOwn(config.payments.items, itemId) ? config.payments.items[itemId] : undefined;
  if (!item) throw new KnownErrors.ItemNotFound(itemId);
  if (item.customerType !== customer.type)
    throw new KnownErrors.ItemCustomerTypeDoesNotMatch(itemId, customer.id, item.customerType, customer.type);
  return item;
}

export function itemView(itemId: string, item: ItemConfig, quantity: number): ItemJson {
  return { id: itemId, display_name: item.displayName ?? itemId, quantity };
}

function customerItemIs(scope: Tenancy, customer: Customer, itemId: string) {
  return and(
    inTenancy(paymentItemChanges, scope),
    eq(paymentItemChanges.customerType, customer.type),
    eq(paymentItemChanges.customerId, customer.id),
    eq(paymentItemChanges.itemId, itemId),
  );
}

/** What default products (default-products.ts) a customer's items count: the config's, owned since `since`. */
export interface DefaultOwnership {
  config: RenderedConfig;
  /** When the customer became one (customerSince); null: owns none (the customer is gone). */
  since: Date | null;
}

/**
 * Every ledger entry of the customer's item up to `now`: the hand-made
 * changes, and the grants of what the customer's purchases include
 * (included-items.ts; ended purchases too, whose grants may outlive them)
 * and of the default products they own or owned.
 */
async function ledgerEntries(
  db: DbOrTx,
  scope: Tenancy,
  customer: Customer,
  itemId: string,
  now: Date,
  defaults: DefaultOwnership,
): Promise<LedgerEntry[]> {
  const changes = await db
    .select({ at: paymentItemChanges.createdAt, quantity: paymentItemChanges.quantity, expiresAt: paymentItemChanges.expiresAt })
    .from(paymentItemChanges)
    .where(customerItemIs(scope, customer, itemId))
    .orderBy(asc(paymentItemChanges.createdAt), asc(paymentItemChanges.id));
  const purchases = await customerPurchases(db, scope, customer);
  const included = purchases.flatMap((purchase) => {
    const item = Object.hasOwn(purchase.product.includedItems, itemId) ? purchase.product.includedItems[itemId] : undefined;
    if (!item) return [];
    return includedItemEntries({ start: purchase.createdAt, end: purchase.endedAt, quantity: purchase.quantity }, item, now);
  });
  const byDefault =
    defaults.since === null
      ? []
      : defaultProducts(defaults.config, customer, defaults.since, purchases, now).flatMap(({ product, spans }) => {
          const item = Object.hasOwn(product.includedItems, itemId) ? product.includedItems[itemId] : undefined;
          return item ? spans.flatMap((span) => includedItemEntries(span, item, now)) : [];
        });
  return [...changes, ...included, ...byDefault];
}

export async function itemQuantity(
  db: DbOrTx,
  scope: Tenancy,
  customer: Customer,
  itemId: string,
  now: Date,
  defaults: DefaultOwnership,
): Promise<number> {
  return quantityAt(await ledgerEntries(db, scope, customer, itemId, now, defaults), now);
}

export interface QuantityChange extends UpdateItemQuantityBody {
  allowNegative: boolean;
}

/**
 * Records one change. With an idempotency key, a change already made with it
 * is answered as done (a retry), unless it differs (409: the key was reused
 * for something else). Without `allowNegative`, a change that would leave
 * less than zero is refused.
 */
export async function changeItemQuantity(
  services: Services,
  scope: Tenancy,
  customer: Customer,
  itemId: string,
  change: QuantityChange,
  config: RenderedConfig,
): Promise<void> {
  const expiresAt = change.expires_at === undefined ? null : new Date(change.expires_at);
  const wanted = { quantity: change.delta, description: change.description ?? null, expiresAt };
  const defaults = { config, since: await customerSince(services, scope, customer) };
  await services.db.transaction(async (tx) => {
    // One writer at a time per customer and item: the quantity read below is what the insert is decided on.
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(${lockKey(scope, customer, itemId)}, 0))`);
    if (change.idempotency_key !== undefined) {
      const [earlier] = await tx
        .select()
        .from(paymentItemChanges)
        .where(and(customerItemIs(scope, customer, itemId), eq(paymentItemChanges.idempotencyKey, change.idempotency_key)));
      if (earlier) return ensureSameChange(earlier, wanted);
    }
    const now = await paymentsNow(services, tx, scope, config);
    if (!change.allowNegative && change.delta < 0) {
      const quantity = await itemQuantity(tx, scope, customer, itemId, now, defaults);
      if (quantity + change.delta < 0) throw new KnownErrors.ItemQuantityInsufficientAmount(itemId, customer.id, change.delta);
    }
    await tx.insert(paymentItemChanges).values({
      ...scope,
      customerType: customer.type,
      customerId: customer.id,
      itemId,
      ...wanted,
      idempotencyKey: change.idempotency_key ?? null,
      createdAt: now,
    });
  });
}

/** The advisory lock's name: a JSON array, so no two customers' keys can run together (text may not hold NUL). */
function lockKey(scope: Tenancy, customer: Customer, itemId: string): string {
  return JSON.stringify(["payment-item", scope.projectId, scope.branchId, customer.type, customer.id, itemId]);
}

function ensureSameChange(
  earlier: PaymentItemChangeRow,
  wanted: { quantity: number; description: string | null; expiresAt: Date | null },
): void {
  const same =
    earlier.quantity === wanted.quantity &&
    earlier.description === wanted.description &&
    (earlier.expiresAt?.getTime() ?? null) === (wanted.expiresAt?.getTime() ?? null);
  if (!same) throw new StatusError(409, "The item quantity idempotency key was already used for a different update");
}
