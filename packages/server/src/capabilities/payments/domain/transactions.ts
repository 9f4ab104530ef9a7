/**
 * The transactions list (GET /internal/payments/transactions): the project's
 * purchases, hand-made item changes and refunds as transactions, newest
 * first, and subscription cancellations, listed when they
 * were asked for.
 *
 * The four sources are read the same way, each from an index on
 * (tenancy, [customer type,] time, id), at most one page (plus one) from
 * each, then merged; so a page costs four index scans and one lookup
 * of the page's purchases' refunds, whatever the history's length. A refund
 * is one made through the API (it revokes what it names and gives money
 * back) or money given back in Stripe itself (money only; a purchase may
 * have several). The order
 * is (created_at, source, id), all descending, and the cursor is the last
 * listed row's place in it: `<created ms>.<source rank>.<id>`.
 */
import {
  CURRENCIES,
  StatusError,
  TRANSACTIONS_DEFAULT_LIMIT,
  TRANSACTIONS_MAX_LIMIT,
  type Currency,
  type CustomerType,
  type TransactionEntryJson,
  type TransactionJson,
  type TransactionType,
} from "@latchkey/shared";
import { and, desc, eq, inArray, isNotNull, lt, or, sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import type { DbOrTx } from "../../../db/connect.ts";
import { inTenancy, type Tenancy } from "../../../db/tenancy.ts";
import {
  paymentItemChanges,
  paymentPurchases,
  paymentRefunds,
  type PaymentItemChangeRow,
  type PaymentPurchaseRow,
  type PaymentRefundRow,
} from "../schema.ts";
import { fromMinorUnits, toMinorUnits } from "./money.ts";
import { priceOf, productView } from "./product-snapshot.ts";

/** Where a transaction comes from; the number orders rows made in the same millisecond (higher first). */
const RANK = { itemChange: 0, purchase: 1, refund: 2, cancellation: 3 } as const;
type Source = keyof typeof RANK;

/** The only transaction type each table makes. */
const TYPE_OF: Record<Source, TransactionType> = {
  itemChange: "manual-item-quantity-change",
  purchase: "purchase",
  refund: "refund",
  cancellation: "subscription-cancellation",
};

interface Cursor {
  at: Date;
  rank: number;
  id: string;
}

const CURSOR = /^(\d{1,15})\.([0-3])\.([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;

function parseCursor(text: string): Cursor {
  const match = CURSOR.exec(text);
  if (!match) throw new StatusError(400, "Invalid cursor");
  return { at: new Date(Number(match[1])), rank: Number(match[2]), id: match[3]! };
}

function cursorOf(row: Row): string {
  return `${row.at.getTime()}.${RANK[row.source]}.${row.id}`;
}

/** `limit` as the reference reads it: a number clamped to 1…200, anything else the default. */
export function transactionsLimit(text: string | undefined): number {
  const parsed = Number.parseInt(text ?? "", 10);
  if (!Number.isFinite(parsed)) return TRANSACTIONS_DEFAULT_LIMIT;
  return Math.max(1, Math.min(TRANSACTIONS_MAX_LIMIT, parsed));
}

export interface TransactionsQuery {
  cursor: string | undefined;
  limit: number;
  type: TransactionType | undefined;
  customerType: CustomerType | undefined;
}

type Row =
  | { source: "itemChange"; at: Date; id: string; row: PaymentItemChangeRow }
  | { source: "purchase"; at: Date; id: string; row: PaymentPurchaseRow }
  | { source: "refund"; at: Date; id: string; row: PaymentRefundRow }
  | { source: "cancellation"; at: Date; id: string; row: PaymentPurchaseRow };

type ListedTable = typeof paymentItemChanges | typeof paymentPurchases | typeof paymentRefunds;

/** The rows of one table that come after the cursor, in the list's order (by `at`, the time it lists them at). */
function afterCursor(table: ListedTable, at: AnyPgColumn, rank: number, cursor: Cursor | null): SQL | undefined {
  if (!cursor) return undefined;
  const sameMillisecond = rank < cursor.rank ? sql`true` : rank > cursor.rank ? sql`false` : lt(table.id, cursor.id);
  return or(lt(at, cursor.at), and(eq(at, cursor.at), sameMillisecond));
}

/** One source's rows after the cursor, newest first: a table listed at its `at` column (only rows where it is set). */
function pageOf(
  db: DbOrTx,
  table: ListedTable,
  at: AnyPgColumn,
  source: Source,
  scope: Tenancy,
  query: TransactionsQuery,
  cursor: Cursor | null,
  take: number,
) {
  return db
    .select()
    .from(table)
    .where(
      and(
        inTenancy(table, scope),
        isNotNull(at),
        query.customerType ? eq(table.customerType, query.customerType) : undefined,
        afterCursor(table, at, RANK[source], cursor),
      ),
    )
    .orderBy(desc(at), desc(table.id))
    .limit(take);
}

export async function listTransactions(
  db: DbOrTx,
  scope: Tenancy,
  query: TransactionsQuery,
): Promise<{ transactions: TransactionJson[]; nextCursor: string | null }> {
  const cursor = query.cursor === undefined || query.cursor === "" ? null : parseCursor(query.cursor);
  const wanted = (source: Source) => query.type === undefined || TYPE_OF[source] === query.type;
  const take = query.limit + 1;
  const read = (source: Source, table: ListedTable, at: AnyPgColumn) =>
    wanted(source) ? pageOf(db, table, at, source, scope, query, cursor, take) : Promise.resolve([]);
  const [changes, purchases, refunds, cancellations] = await Promise.all([
    read("itemChange", paymentItemChanges, paymentItemChanges.createdAt),
    read("purchase", paymentPurchases, paymentPurchases.createdAt),
    read("refund", paymentRefunds, paymentRefunds.createdAt),
    read("cancellation", paymentPurchases, paymentPurchases.cancelledAt),
  ]);
  const merged: Row[] = [
    ...(changes as PaymentItemChangeRow[]).map((row) => ({ source: "itemChange" as const, at: row.createdAt, id: row.id, row })),
    ...(purchases as PaymentPurchaseRow[]).map((row) => ({ source: "purchase" as const, at: row.createdAt, id: row.id, row })),
    ...(refunds as PaymentRefundRow[]).map((row) => ({ source: "refund" as const, at: row.createdAt, id: row.id, row })),
    ...(cancellations as PaymentPurchaseRow[]).map((row) => ({ source: "cancellation" as const, at: row.cancelledAt!, id: row.id, row })),
  ].sort(newestFirst);
  const page = merged.slice(0, query.limit);
  const pagePurchases = page.flatMap((entry) => (entry.source === "purchase" ? [entry.row.id] : []));
  const refundOf = await refundsOf(db, scope, pagePurchases);
  return {
    transactions: page.map((entry) => {
      if (entry.source === "itemChange") return itemChangeTransaction(entry.row);
      if (entry.source === "purchase") return purchaseTransaction(entry.row, refundOf.get(entry.row.id) ?? []);
      if (entry.source === "cancellation") return cancellationTransaction(entry.row);
      return refundTransaction(entry.row);
    }),
    nextCursor: merged.length > query.limit ? cursorOf(page[page.length - 1]!) : null,
  };
}

function newestFirst(a: Row, b: Row): number {
  return b.at.getTime() - a.at.getTime() || RANK[b.source] - RANK[a.source] || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
}

async function refundsOf(db: DbOrTx, scope: Tenancy, purchaseIds: string[]): Promise<Map<string, PaymentRefundRow[]>> {
  const refunds = new Map<string, PaymentRefundRow[]>();
  if (purchaseIds.length === 0) return refunds;
  const rows = await db
    .select()
    .from(paymentRefunds)
    .where(and(inTenancy(paymentRefunds, scope), inArray(paymentRefunds.purchaseId, purchaseIds)))
    .orderBy(paymentRefunds.createdAt, paymentRefunds.id);
  for (const row of rows) refunds.set(row.purchaseId, [...(refunds.get(row.purchaseId) ?? []), row]);
  return refunds;
}

const UNADJUSTED = { adjusted_transaction_id: null, adjusted_entry_index: null };

function itemChangeTransaction(row: PaymentItemChangeRow): TransactionJson {
  return {
    id: row.id,
    type: "manual-item-quantity-change",
    created_at_millis: row.createdAt.getTime(),
    effective_at_millis: row.createdAt.getTime(),
    test_mode: false,
    entries: [
      {
        type: "item_quantity_change",
        ...UNADJUSTED,
        customer_type: row.customerType,
        customer_id: row.customerId,
        item_id: row.itemId,
        quantity: row.quantity,
      },
    ],
    adjusted_by: [],
  };
}

/**
 * What a purchase's price lists per currency (price × quantity), nonzero amounts only; nothing for one without a
 * price. A purchase charged in USD (or before currencies were recorded) shows these, as it always has.
 */
function listedAmounts(purchase: PaymentPurchaseRow): Partial<Record<Currency, number>> {
  const price = priceOf(purchase.product, purchase.priceId ?? undefined);
  const listed: Partial<Record<Currency, number>> = {};
  if (!price) return listed;
  for (const currency of Object.keys(CURRENCIES) as Currency[]) {
    const amount = price.price[currency];
    const units = typeof amount === "string" ? toMinorUnits(amount, currency) : null;
    if (units) listed[currency] = units * purchase.quantity;
  }
  return listed;
}

/** The currency a purchase was charged in: the one recorded; before currencies were recorded, every charge was in USD. */
export function chargedCurrency(purchase: PaymentPurchaseRow): Currency {
  return purchase.currency ?? "USD";
}

/** What the purchase charged (its price × quantity) in the currency it was charged in, in minor units; null when its price has no amount in it. */
export function chargedMoney(purchase: PaymentPurchaseRow): { currency: Currency; units: number } | null {
  const currency = chargedCurrency(purchase);
  const units = listedAmounts(purchase)[currency];
  return units === undefined ? null : { currency, units };
}

/** The money entry's amounts: what was charged in its currency; a USD charge also lists the price's other currencies. */
function chargedAmounts(purchase: PaymentPurchaseRow): { charged: Record<string, string>; net: Record<string, string> } | null {
  const currency = chargedCurrency(purchase);
  const listed = Object.entries(listedAmounts(purchase)).filter(([code]) => currency === "USD" || code === currency);
  if (listed.length === 0) return null;
  const charged = Object.fromEntries(listed.map(([code, units]) => [code, fromMinorUnits(units, code as Currency)]));
  return { charged, net: { [currency]: charged[currency] ?? "0" } };
}

/** A purchase's transaction entries: its product grant, then (if it was paid) the money. Refunds index into these. */
export function purchaseEntries(purchase: PaymentPurchaseRow): TransactionEntryJson[] {
  const customer = { customer_type: purchase.customerType, customer_id: purchase.customerId };
  const entries: TransactionEntryJson[] = [
    {
      type: "product_grant",
      ...UNADJUSTED,
      ...customer,
      product_id: purchase.productId,
      product: productView(purchase.product, purchase.productId),
      price_id: purchase.priceId,
      quantity: purchase.quantity,
      ...(purchase.kind === "subscription" ? { subscription_id: purchase.id } : { one_time_purchase_id: purchase.id }),
    },
  ];
  // Only a purchase paid through Stripe moved money; a grant or a test-mode purchase did not.
  if (purchase.source === "stripe") {
    const amounts = chargedAmounts(purchase);
    if (amounts) {
      entries.push({
        type: "money_transfer",
        ...UNADJUSTED,
        ...customer,
        charged_amount: amounts.charged,
        net_amount: amounts.net,
      });
    }
  }
  return entries;
}

function purchaseTransaction(purchase: PaymentPurchaseRow, refunds: PaymentRefundRow[]): TransactionJson {
  return {
    id: purchase.id,
    type: "purchase",
    created_at_millis: purchase.createdAt.getTime(),
    effective_at_millis: purchase.createdAt.getTime(),
    test_mode: purchase.source === "test_mode",
    entries: purchaseEntries(purchase),
    // A cancellation and a refund through the API each end the product grant (entry 0), whatever quantities a
    // refund named; money given back in Stripe itself leaves the grant as it was.
    adjusted_by: [
      ...(purchase.cancelledAt ? [{ transaction_id: cancellationId(purchase), entry_index: 0 }] : []),
      ...refunds.filter((refund) => refund.origin === "api").map((refund) => ({ transaction_id: refund.id, entry_index: 0 })),
    ],
  };
}

/** A cancellation's own id: its subscription's, marked (the subscription's purchase keeps the plain one). */
export function cancellationId(purchase: Pick<PaymentPurchaseRow, "id">): string {
  return `${purchase.id}:cancellation`;
}

/**
 * A cancelled subscription: listed when it was cancelled, taking effect when
 * it ends (its period's end), revoking the whole grant.
 */
function cancellationTransaction(purchase: PaymentPurchaseRow): TransactionJson {
  return {
    id: cancellationId(purchase),
    type: "subscription-cancellation",
    created_at_millis: purchase.cancelledAt!.getTime(),
    effective_at_millis: (purchase.endedAt ?? purchase.cancelledAt!).getTime(),
    test_mode: purchase.source === "test_mode",
    entries: [{ type: "product_revocation", adjusted_transaction_id: purchase.id, adjusted_entry_index: 0, quantity: purchase.quantity }],
    adjusted_by: [],
  };
}

function refundTransaction(refund: PaymentRefundRow): TransactionJson {
  const entries: TransactionEntryJson[] = refund.entries
    .filter((entry) => entry.quantity > 0)
    .map((entry) => ({
      type: "product_revocation" as const,
      adjusted_transaction_id: refund.purchaseId,
      adjusted_entry_index: entry.entryIndex,
      quantity: entry.quantity,
    }));
  if (refund.amountMinorUnits > 0) {
    const back = { [refund.currency]: fromMinorUnits(-refund.amountMinorUnits, refund.currency) };
    entries.push({
      type: "money_transfer",
      ...UNADJUSTED,
      customer_type: refund.customerType,
      customer_id: refund.customerId,
      charged_amount: back,
      net_amount: back,
    });
  }
  return {
    id: refund.id,
    type: "refund",
    created_at_millis: refund.createdAt.getTime(),
    effective_at_millis: refund.createdAt.getTime(),
    test_mode: false,
    entries,
    adjusted_by: [],
  };
}
