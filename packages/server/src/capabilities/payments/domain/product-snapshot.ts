/**
 * A product as a purchase keeps it: the config's form (`payments.products.<id>`),
 * with the metadata an inline product may carry. Configured and inline
 * products become one of these (productOf), purchases and purchase codes
 * store it, and answers show it as an inline product
 * (productView). Pure: no database, no clock.
 */
import {
  KnownErrors,
  StatusError,
  type AccessType,
  type InlineProduct,
  type Json,
  type PaymentInterval,
  type ProductJson,
  type RenderedConfig,
} from "@latchkey/shared";

type ConfiguredProduct = RenderedConfig["payments"]["products"][string];

export type ProductSnapshot = ConfiguredProduct & {
  clientMetadata?: Json | null;
  clientReadOnlyMetadata?: Json | null;
  serverMetadata?: Json | null;
};

export type ProductPrice = Exclude<ProductSnapshot["prices"], "include-by-default">[string];

/** The product a request names: `product_id` (configured) or `product_inline` (server access only). */
export interface ProductChoice {
  productId: string | undefined;
  inline: InlineProduct | undefined;
}

/**
 * The product of a request, after the API's checks: exactly one of id
 * and inline, no inline from a client, a configured id that exists and that
 * a client may see.
 */
export function productOf(config: RenderedConfig, accessType: AccessType, choice: ProductChoice): ProductSnapshot {
  const { productId, inline } = choice;
  if (productId !== undefined && inline !== undefined) throw new StatusError(400, "Cannot specify both product_id and product_inline!");
  if (inline !== undefined && accessType === "client") {
    throw new StatusError(
      400,
      "Cannot specify product_inline when calling from client! Please call with a server API key, or use the product_id parameter.",
    );
  }
  if (productId !== undefined) {
    const product = Object.hasOwn(config.payments.products, productId) ? config.payments.products[productId] : undefined;
    if (!product)
      throw new KnownErrors.ProductDoesNotExist(productId, Object.hasOwn(config.payments.items, productId) ? "item_exists" : null);
    if (product.serverOnly && accessType === "client") throw new KnownErrors.ProductDoesNotExist(productId, "server_only");
    return product;
  }
  if (inline === undefined) throw new StatusError(400, "Must specify either product_id or product_inline!");
  return inlineProductOf(inline);
}

/** An inline product in the config's form: never stackable, its prices server-only, its included items expiring never unless said. */
export function inlineProductOf(inline: InlineProduct): ProductSnapshot {
  const prices: Record<string, ProductPrice> = {};
  for (const [priceId, { interval, free_trial, ...amounts }] of Object.entries(inline.prices)) {
    prices[priceId] = {
      ...definedOnly(amounts),
      ...(interval ? { interval } : {}),
      ...(free_trial ? { freeTrial: free_trial } : {}),
      serverOnly: true,
    };
  }
  const includedItems: ProductSnapshot["includedItems"] = {};
  for (const [itemId, item] of Object.entries(inline.included_items ?? {})) {
    includedItems[itemId] = { quantity: item.quantity ?? 0, repeat: item.repeat ?? "never", expires: item.expires ?? "never" };
  }
  return {
    displayName: inline.display_name,
    customerType: inline.customer_type,
    isAddOnTo: false,
    serverOnly: inline.server_only ?? true,
    stackable: false,
    ...(inline.free_trial ? { freeTrial: inline.free_trial } : {}),
    prices,
    includedItems,
    clientMetadata: (inline.client_metadata ?? null) as Json | null,
    clientReadOnlyMetadata: (inline.client_read_only_metadata ?? null) as Json | null,
    serverMetadata: (inline.server_metadata ?? null) as Json | null,
  };
}

/** How answers show a product. */
export function productView(product: ProductSnapshot, productId: string | null): ProductJson {
  const prices: ProductJson["prices"] = {};
  if (product.prices !== "include-by-default") {
    for (const [priceId, price] of Object.entries(product.prices)) {
      const { interval, freeTrial, serverOnly: _serverOnly, ...amounts } = price;
      prices[priceId] = { ...definedOnly(amounts), ...(interval ? { interval } : {}), ...(freeTrial ? { free_trial: freeTrial } : {}) };
    }
  }
  return {
    display_name: product.displayName ?? productId ?? "Product",
    customer_type: product.customerType,
    ...(product.productLineId !== undefined ? { product_line_id: product.productLineId } : {}),
    ...(product.freeTrial ? { free_trial: product.freeTrial } : {}),
    server_only: product.serverOnly,
    stackable: product.stackable,
    prices,
    included_items: product.includedItems,
    client_metadata: product.clientMetadata ?? null,
    client_read_only_metadata: product.clientReadOnlyMetadata ?? null,
    server_metadata: product.serverMetadata ?? null,
  };
}

/** The price a purchase uses: the named one (unknown: 400), else the product's first; none for a product without prices. */
export function priceOf(product: ProductSnapshot, priceId: string | undefined): { id: string; price: ProductPrice } | null {
  if (product.prices === "include-by-default") return null;
  if (priceId !== undefined) {
    const price = Object.hasOwn(product.prices, priceId) ? product.prices[priceId] : undefined;
    if (!price) throw new StatusError(400, "Price not found on product associated with this purchase code");
    return { id: priceId, price };
  }
  const first = Object.entries(product.prices)[0];
  return first ? { id: first[0], price: first[1] } : null;
}

/** Whether any price of the product renews (buying it makes a subscription). */
export function hasIntervalPrice(product: ProductSnapshot): boolean {
  return product.prices !== "include-by-default" && Object.values(product.prices).some((price) => price.interval !== undefined);
}

const DAY_MS = 24 * 60 * 60 * 1000;
/** A month is 30 days and a year 365, so periods are the same length whatever the calendar. */
const UNIT_MS = { day: DAY_MS, week: 7 * DAY_MS, month: 30 * DAY_MS, year: 365 * DAY_MS } as const;

export function intervalMs([count, unit]: PaymentInterval): number {
  return count * UNIT_MS[unit];
}

function definedOnly<T extends Record<string, unknown>>(value: T): { [K in keyof T]: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as never;
}
