/**
 * Items: what a customer (a user, a team, or an id of the app's own) holds a
 * quantity of — credits, seats, API calls — as the project's config defines
 * them (`payments.items.<id>`). An item object is a snapshot of the quantity
 * when it was read; a server's item object also changes it, and the app then
 * reads its cached item again (hooks re-render with the new quantity).
 */
import type { ItemJson } from "@latchkey/shared/api/index";
import type { CustomerType } from "@latchkey/shared/constants";
import { KnownErrors } from "@latchkey/shared/known-errors/index";
import type { CacheEntry } from "../cache/entry.ts";
import type { AccessType, ApiClient } from "../interface/api-client.ts";
import type { Session } from "../session/session.ts";

export interface Item {
  /** The config's display name, or the item's id when it has none. */
  readonly displayName: string;
  /** May be negative: debt left by removals allowed below zero. */
  readonly quantity: number;
  /** `Math.max(0, quantity)`: what is left to use. */
  readonly nonNegativeQuantity: number;
}

/** An item read with server (or admin) access, which may change its quantity. */
export interface ServerItem extends Item {
  /** Grants `amount` more. */
  increaseQuantity(amount: number): Promise<void>;
  /**
   * Removes `amount`, below zero if need be (the shortfall is debt that later
   * grants pay first). To refuse a removal that does not fit, race-free, use
   * `tryDecreaseQuantity`.
   */
  decreaseQuantity(amount: number): Promise<void>;
  /**
   * Removes `amount` when the quantity covers it and answers true; otherwise
   * changes nothing and answers false. Decided on the server under a lock, so
   * of concurrent removals exactly those that fit succeed (pre-paid credits).
   */
  tryDecreaseQuantity(amount: number): Promise<boolean>;
}

/** Whose item: exactly one of a user's id, a team's id, or the app's own customer id (any string, never checked). */
export type ItemCustomerOptions = { userId: string } | { teamId: string } | { customCustomerId: string };

/** An item of a customer, as `app.getItem` names it. */
export type GetItemOptions = { itemId: string } & ItemCustomerOptions;

/** One change of a customer's quantity, as `adminApp.createItemQuantityChange` makes it. */
export type ItemQuantityChangeOptions = GetItemOptions & {
  /** Positive grants, negative removes; a removal that does not fit is refused (ITEM_QUANTITY_INSUFFICIENT_AMOUNT). */
  quantity: number;
  /** When what is left of a grant stops counting (an ISO 8601 date, or a Date). */
  expiresAt?: string | Date;
  description?: string;
};

export interface ItemCustomer {
  type: CustomerType;
  id: string;
}

/** The customer the options name; exactly one of the three must be given (plain JavaScript callers are checked too). */
export function itemCustomerOf(options: ItemCustomerOptions): ItemCustomer {
  const given = options as Partial<Record<"userId" | "teamId" | "customCustomerId", unknown>>;
  const named = [
    ["user", given.userId],
    ["team", given.teamId],
    ["custom", given.customCustomerId],
  ].filter(([, id]) => id !== undefined) as [CustomerType, unknown][];
  if (named.length !== 1 || typeof named[0]![1] !== "string") {
    throw new TypeError("An item's customer is exactly one of userId, teamId or customCustomerId (a string).");
  }
  return { type: named[0]![0], id: named[0]![1] };
}

/** How item reads and changes reach the API. */
export interface ItemContext {
  api: ApiClient;
  accessType: AccessType;
  /** The signed-in user's session (client apps), else null. */
  session: Session | null;
  /** A customer's item changed: the app reads its cached copies again. */
  changed(customer: ItemCustomer, itemId: string): void;
}

/** The app's cached item reads, as user and team objects use them (apps/items.ts provides them). */
export interface ItemReads {
  entry(session: Session | null, customer: ItemCustomer, itemId: string): CacheEntry<Item>;
}

function itemParams(customer: ItemCustomer, itemId: string) {
  return { customer_type: customer.type, customer_id: customer.id, item_id: itemId };
}

export async function fetchItem(context: ItemContext, customer: ItemCustomer, itemId: string): Promise<Item | ServerItem> {
  const json = await context.api.call("GET /payments/items/:customer_type/:customer_id/:item_id", {
    accessType: context.accessType,
    session: context.session,
    params: itemParams(customer, itemId),
  });
  return itemFromJson(json, context, customer);
}

/** The item object of a read: with the quantity methods when the app reads with server access. */
export function itemFromJson(json: ItemJson, context: ItemContext, customer: ItemCustomer): Item | ServerItem {
  const item: Item = { displayName: json.display_name, quantity: json.quantity, nonNegativeQuantity: Math.max(0, json.quantity) };
  if (context.accessType === "client") return item;
  const change = (delta: number, allowNegative: boolean) => updateItemQuantity(context, customer, json.id, { delta, allowNegative });
  return {
    ...item,
    // async: a refused amount rejects the promise, as every failure of these methods does.
    increaseQuantity: async (amount) => change(wholeAmount(amount), true),
    decreaseQuantity: async (amount) => change(-wholeAmount(amount), true),
    async tryDecreaseQuantity(amount) {
      try {
        await change(-wholeAmount(amount), false);
        return true;
      } catch (error) {
        if (error instanceof KnownErrors.ItemQuantityInsufficientAmount) return false;
        throw error;
      }
    },
  } satisfies ServerItem;
}

/**
 * An amount to grant or remove: a whole number not below zero. Checked here,
 * since a negative one would turn an increase into a removal (and the other
 * way round) rather than be refused by the server.
 */
function wholeAmount(amount: number): number {
  if (!Number.isSafeInteger(amount) || amount < 0) {
    throw new RangeError(`An item quantity changes by a whole number of at least 0, not ${String(amount)}.`);
  }
  return amount;
}

export interface QuantityUpdate {
  delta: number;
  /** false: refused with ITEM_QUANTITY_INSUFFICIENT_AMOUNT when the quantity would fall below zero. */
  allowNegative: boolean;
  expiresAt?: string | Date | undefined;
  description?: string | undefined;
}

/** One change of a customer's quantity (server or admin access); the app's cached copies are read again. */
export async function updateItemQuantity(context: ItemContext, customer: ItemCustomer, itemId: string, update: QuantityUpdate) {
  const expiresAt = update.expiresAt instanceof Date ? update.expiresAt.toISOString() : update.expiresAt;
  await context.api.call("POST /payments/items/:customer_type/:customer_id/:item_id/update-quantity", {
    accessType: context.accessType,
    session: context.session,
    params: itemParams(customer, itemId),
    query: { allow_negative: update.allowNegative ? "true" : "false" },
    body: {
      delta: update.delta,
      ...(expiresAt === undefined ? {} : { expires_at: expiresAt }),
      ...(update.description === undefined ? {} : { description: update.description }),
    },
  });
  context.changed(customer, itemId);
}
