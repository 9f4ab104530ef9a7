/**
 * A customer's quantity of an item as React state, read through the SDK's
 * cache (shared with `user.getItem`, `team.getItem` and `app.getItem`) and
 * read again after the SDK changes it (`increaseQuantity` and the like).
 * Suspends on the first read.
 */
import type { CacheEntry, GetItemOptions, Item, StackClientApp, StackServerApp } from "@latchkey/js";
import { useStackApp } from "./provider.tsx";
import { useCacheEntry } from "./use-cache-entry.ts";

/** A user or team object (client or server): what `useItem(customer, itemId)` reads from. */
export interface ItemHolder {
  getItem(itemId: string): Promise<Item>;
  _itemEntry(itemId: string): CacheEntry<Item>;
}

/** The item type of the app in <StackProvider>: a server (or admin) app's items change quantities. */
export type ItemOfApp<App extends StackClientApp> = Awaited<ReturnType<App["getItem"]>>;

/** A user's or a team's item: a ServerItem for objects a server app read. */
export function useItem<C extends ItemHolder>(customer: C, itemId: string): Awaited<ReturnType<C["getItem"]>>;
/** Any customer's item, through the app in <StackProvider>; name a server app's type for ServerItem, e.g. `useItem<StackServerApp>(…)`. */
export function useItem<App extends StackClientApp = StackClientApp>(options: GetItemOptions): ItemOfApp<App>;
export function useItem(customerOrOptions: ItemHolder | GetItemOptions, itemId?: string): Item {
  const app = useStackApp<StackServerApp>();
  return useCacheEntry(isCustomer(customerOrOptions) ? customerOrOptions._itemEntry(itemIdOf(itemId)) : app._itemEntry(customerOrOptions));
}

function itemIdOf(itemId: string | undefined): string {
  if (typeof itemId !== "string") throw new TypeError("useItem(user or team, itemId) needs the item's id.");
  return itemId;
}

function isCustomer(value: ItemHolder | GetItemOptions): value is ItemHolder {
  return typeof (value as Partial<ItemHolder>)._itemEntry === "function";
}
