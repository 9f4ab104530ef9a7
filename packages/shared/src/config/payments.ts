/**
 * The payments catalogue's rules across keys: what a product names (its product line, the products it is an
 * add-on to, its included items) should exist and be for the product's customer type, and each price must name
 * a currency. They hold for the rendered config, since a product and what it names may be written at different
 * levels or in different writes.
 *
 * Only a price without a currency refuses a write. A name that does not resolve is reported (the dashboard shows
 * it) but stored: apps written for the wire contract may write a product before the item it includes, in two
 * writes, and the reference stores both. Purchases skip what does not resolve.
 */
import { configOverrideError } from "./override.ts";
import { priceCurrencyProblem, type RenderedConfig } from "./schema.ts";

export interface ConfigProblem {
  /** The dotted key the problem is at. */
  path: string;
  message: string;
  /** Whether a write that makes it is refused (a price without a currency), or it is only reported (a name). */
  refused: boolean;
}

export function paymentsCatalogueProblems(config: RenderedConfig): ConfigProblem[] {
  const { items, productLines, products } = config.payments;
  const problems: ConfigProblem[] = [];
  for (const [productId, product] of Object.entries(products)) {
    const at = `payments.products.${productId}`;
    const lineId = product.productLineId;
    if (lineId !== undefined) {
      const line = Object.hasOwn(productLines, lineId) ? productLines[lineId] : undefined;
      const path = `${at}.productLineId`;
      if (!line)
        problems.push({ path, message: `${path} must name an existing product line ("${lineId}" does not exist)`, refused: false });
      else if (line.customerType !== undefined && line.customerType !== product.customerType) {
        problems.push({
          path,
          message: `${path} names a product line for ${line.customerType} customers, but the product is for ${product.customerType} customers`,
          refused: false,
        });
      }
    }
    if (product.isAddOnTo !== false) {
      for (const baseId of Object.keys(product.isAddOnTo)) {
        if (Object.hasOwn(products, baseId)) continue;
        const path = `${at}.isAddOnTo.${baseId}`;
        problems.push({ path, message: `${path} must name an existing product ("${baseId}" does not exist)`, refused: false });
      }
    }
    for (const itemId of Object.keys(product.includedItems)) {
      const path = `${at}.includedItems.${itemId}`;
      const item = Object.hasOwn(items, itemId) ? items[itemId] : undefined;
      if (!item) problems.push({ path, message: `${path} must name an existing item ("${itemId}" does not exist)`, refused: false });
      else if (item.customerType !== product.customerType) {
        problems.push({
          path,
          message: `${path} names an item for ${item.customerType} customers, but the product is for ${product.customerType} customers`,
          refused: false,
        });
      }
    }
    if (product.prices !== "include-by-default") {
      for (const [priceId, price] of Object.entries(product.prices)) {
        const message = priceCurrencyProblem(price);
        if (message) problems.push({ path: `${at}.prices.${priceId}`, message, refused: true });
      }
    }
  }
  return problems;
}

/**
 * Throws the 400 for the first refused problem `after` has that `before` had not: a write is refused for what it
 * breaks, not for what was already so (an older stored catalogue keeps every other key writable).
 */
export function refuseNewConfigProblems(before: RenderedConfig, after: RenderedConfig): void {
  const known = new Set(paymentsCatalogueProblems(before).map(keyOf));
  const introduced = paymentsCatalogueProblems(after).find((problem) => problem.refused && !known.has(keyOf(problem)));
  if (introduced) throw configOverrideError(introduced.message);
}

function keyOf(problem: ConfigProblem): string {
  return `${problem.path}\n${problem.message}`;
}
