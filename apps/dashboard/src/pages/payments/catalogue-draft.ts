/**
 * The payments catalogue as the dashboard's forms edit it, and back: a
 * product's config entry (`payments.products.<id>`) becomes a draft of
 * strings and lists the inputs hold, and a draft becomes the entry that is
 * written whole (writing a product's key replaces it). Amounts stay the
 * strings the owner typed: the server checks them against the currency's
 * decimals and says what is wrong.
 */
import {
  CURRENCY_CODES,
  PAYMENT_INTERVAL_UNITS,
  PAYMENTS_ID_PATTERN,
  type Currency,
  type CustomerType,
  type RenderedConfig,
} from "@latchkey/shared";

export type Payments = RenderedConfig["payments"];
export type ProductConfig = Payments["products"][string];
type PricesConfig = Exclude<ProductConfig["prices"], "include-by-default">;
type PriceConfig = PricesConfig[string];
type IncludedConfig = ProductConfig["includedItems"][string];

export { CURRENCY_CODES };
export const INTERVAL_UNITS = PAYMENT_INTERVAL_UNITS;
export type IntervalUnit = (typeof INTERVAL_UNITS)[number];
export const EXPIRIES = ["when-repeated", "when-purchase-expires", "never"] as const;
export type Expiry = (typeof EXPIRIES)[number];

/** An interval as its two inputs hold it; `null` where the form offers "none" (one-time, no trial, never repeats). */
export interface IntervalDraft {
  count: string;
  unit: IntervalUnit;
}

export interface PriceDraft {
  id: string;
  amounts: Partial<Record<Currency, string>>;
  /** None: a one-time price. */
  interval: IntervalDraft | null;
  serverOnly: boolean;
}

export interface IncludedItemDraft {
  itemId: string;
  quantity: string;
  /** None: granted once. */
  repeat: IntervalDraft | null;
  expires: Expiry;
}

export interface ProductDraft {
  id: string;
  displayName: string;
  customerType: CustomerType;
  /** "" for none. */
  productLineId: string;
  serverOnly: boolean;
  stackable: boolean;
  /** The products this one is an add-on to; empty: not an add-on. */
  addOnTo: string[];
  freeTrial: IntervalDraft | null;
  /** Free, and owned by every customer of its type without a purchase. */
  includeByDefault: boolean;
  prices: PriceDraft[];
  includedItems: IncludedItemDraft[];
}

/** Why an id the catalogue cannot hold is refused (PAYMENTS_ID_PATTERN), said before anything is written. */
export const idRule = (what: string) => `${what} id is 1 to 63 letters, digits, _ and -, not starting with -.`;

export function emptyPrice(index: number): PriceDraft {
  return {
    id: index === 0 ? "monthly" : `price-${index + 1}`,
    amounts: { USD: "" },
    interval: { count: "1", unit: "month" },
    serverOnly: false,
  };
}

export function emptyIncludedItem(itemId: string): IncludedItemDraft {
  return { itemId, quantity: "1", repeat: null, expires: "when-repeated" };
}

export function emptyProduct(customerType: CustomerType = "user"): ProductDraft {
  return {
    id: "",
    displayName: "",
    customerType,
    productLineId: "",
    serverOnly: false,
    stackable: false,
    addOnTo: [],
    freeTrial: null,
    includeByDefault: false,
    prices: [emptyPrice(0)],
    includedItems: [],
  };
}

const intervalDraft = (interval: [number, IntervalUnit] | undefined): IntervalDraft | null =>
  interval ? { count: String(interval[0]), unit: interval[1] } : null;

export function productDraft(id: string, product: ProductConfig): ProductDraft {
  const prices = product.prices === "include-by-default" ? {} : product.prices;
  return {
    id,
    displayName: product.displayName ?? "",
    customerType: product.customerType,
    productLineId: product.productLineId ?? "",
    serverOnly: product.serverOnly,
    stackable: product.stackable,
    addOnTo: product.isAddOnTo === false ? [] : Object.keys(product.isAddOnTo),
    freeTrial: intervalDraft(product.freeTrial),
    includeByDefault: product.prices === "include-by-default",
    prices: Object.entries(prices).map(([priceId, price]) => ({
      id: priceId,
      amounts: Object.fromEntries(CURRENCY_CODES.filter((c) => price[c] !== undefined).map((c) => [c, price[c]])),
      interval: intervalDraft(price.interval),
      serverOnly: price.serverOnly,
    })),
    includedItems: Object.entries(product.includedItems).map(([itemId, included]) => ({
      itemId,
      quantity: String(included.quantity),
      repeat: included.repeat === "never" ? null : intervalDraft(included.repeat),
      expires: included.expires,
    })),
  };
}

/** A count the owner typed, as a number when it is a whole one (else as typed: the server's refusal names it). */
function count(text: string): number | string {
  const trimmed = text.trim();
  return /^\d+$/.test(trimmed) ? Number(trimmed) : trimmed;
}

const intervalConfig = (interval: IntervalDraft | null) => (interval ? [count(interval.count), interval.unit] : undefined);

/** The config entry written for a draft: only what differs from the defaults, so the override stays readable. */
export function productConfig(draft: ProductDraft): Record<string, unknown> {
  const entry: Record<string, unknown> = { customerType: draft.customerType };
  if (draft.displayName.trim()) entry.displayName = draft.displayName.trim();
  if (draft.productLineId) entry.productLineId = draft.productLineId;
  if (draft.serverOnly) entry.serverOnly = true;
  if (draft.stackable) entry.stackable = true;
  if (draft.addOnTo.length > 0) entry.isAddOnTo = Object.fromEntries(draft.addOnTo.map((id) => [id, true]));
  if (draft.freeTrial) entry.freeTrial = intervalConfig(draft.freeTrial);
  entry.prices = draft.includeByDefault
    ? "include-by-default"
    : Object.fromEntries(
        draft.prices.map((price) => {
          const amounts = Object.entries(price.amounts).filter(([, amount]) => amount !== undefined && amount.trim() !== "");
          const config: Record<string, unknown> = Object.fromEntries(amounts.map(([currency, amount]) => [currency, amount!.trim()]));
          if (price.interval) config.interval = intervalConfig(price.interval);
          if (price.serverOnly) config.serverOnly = true;
          return [price.id.trim(), config];
        }),
      );
  entry.includedItems = Object.fromEntries(
    draft.includedItems.map((included) => [
      included.itemId,
      {
        quantity: count(included.quantity),
        repeat: included.repeat ? intervalConfig(included.repeat) : "never",
        expires: included.expires,
      },
    ]),
  );
  return entry;
}

/** What the form can say before the server is asked: ids it could not store, and duplicates. */
export function draftProblems(draft: ProductDraft, existingIds: readonly string[], editing: boolean): string[] {
  const problems: string[] = [];
  if (!PAYMENTS_ID_PATTERN.test(draft.id)) problems.push(idRule("A product"));
  else if (!editing && existingIds.includes(draft.id)) problems.push(`There is already a product "${draft.id}".`);
  if (!draft.includeByDefault) {
    const priceIds = draft.prices.map((p) => p.id.trim());
    if (priceIds.some((id) => !PAYMENTS_ID_PATTERN.test(id))) problems.push(idRule("A price"));
    if (new Set(priceIds).size !== priceIds.length) problems.push("Two prices have the same id.");
  }
  const itemIds = draft.includedItems.map((i) => i.itemId);
  if (new Set(itemIds).size !== itemIds.length) problems.push("An item is included twice.");
  return problems;
}

/** A one-line summary of a product's prices for the table: "$9.99 / month, €9 / month" or "Free (included by default)". */
export function pricesSummary(product: ProductConfig): string {
  if (product.prices === "include-by-default") return "Free (included by default)";
  const parts = Object.values(product.prices).map((price: PriceConfig) => {
    const amounts = CURRENCY_CODES.filter((c) => price[c] !== undefined).map((c) => `${price[c]} ${c}`);
    const every = price.interval ? ` / ${intervalText(price.interval)}` : " once";
    return `${amounts.join(", ") || "no amount"}${every}`;
  });
  return parts.join("; ") || "No prices";
}

export function intervalText([n, unit]: [number, string]): string {
  return n === 1 ? unit : `${n} ${unit}s`;
}

export function includedSummary(product: ProductConfig): string {
  return (
    Object.entries(product.includedItems)
      .map(
        ([itemId, included]: [string, IncludedConfig]) =>
          `${included.quantity} × ${itemId}${included.repeat === "never" ? "" : ` every ${intervalText(included.repeat)}`}`,
      )
      .join(", ") || "—"
  );
}
