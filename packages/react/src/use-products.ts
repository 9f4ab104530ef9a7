/**
 * A customer's products as React state, read through the SDK's cache (shared
 * with `user.listProducts`, `team.listProducts` and `app.listProducts`) and
 * read again after the SDK changes them (grants, cancellations). Suspends on
 * the first read.
 */
import type { CacheEntry, CustomerProductsList, CustomerProductsListOptions, CustomerProductsRequestOptions } from "@latchkey/js";
import { useStackApp } from "./provider.tsx";
import { useCacheEntry } from "./use-cache-entry.ts";

/** A user or team object (client or server): what `useProducts(customer)` reads from. */
export interface ProductsHolder {
  _productsEntry(options?: CustomerProductsListOptions): CacheEntry<CustomerProductsList>;
}

/** A user's or a team's products. */
export function useProducts(customer: ProductsHolder, options?: CustomerProductsListOptions): CustomerProductsList;
/** Any customer's products, through the app in <StackProvider>. */
export function useProducts(options: CustomerProductsRequestOptions): CustomerProductsList;
export function useProducts(
  customerOrOptions: ProductsHolder | CustomerProductsRequestOptions,
  options?: CustomerProductsListOptions,
): CustomerProductsList {
  const app = useStackApp();
  return useCacheEntry(isCustomer(customerOrOptions) ? customerOrOptions._productsEntry(options) : app._productsEntry(customerOrOptions));
}

function isCustomer(value: ProductsHolder | CustomerProductsRequestOptions): value is ProductsHolder {
  return typeof (value as Partial<ProductsHolder>)._productsEntry === "function";
}
