/**
 * An app's cached item reads (see cache/query.ts): one entry per customer and
 * item, shared by `app.getItem`, `user.getItem`, `team.getItem` and the
 * `useItem` hook. A change made through this app reads every copy of that
 * customer's item again, whichever session read it.
 */
import { CachedQuery, type CacheEntry, type CacheStore } from "../cache/index.ts";
import type { AccessType, ApiClient } from "../interface/api-client.ts";
import { fetchItem, type Item, type ItemContext, type ItemCustomer, type ItemReads } from "../models/item.ts";
import type { Session } from "../session/session.ts";

export interface AppItemsContext {
  api: ApiClient;
  /** The app's access, asked when used (a subclass app sets its own after the base constructor ran). */
  accessType(): AccessType;
  cache: CacheStore;
}

const QUERY = "item";

export class AppItems implements ItemReads {
  readonly #item: CachedQuery<[Session | null, ItemCustomer["type"], string, string], Item>;

  constructor(private readonly ctx: AppItemsContext) {
    this.#item = new CachedQuery(ctx.cache, QUERY, (session: Session | null, type: ItemCustomer["type"], id: string, itemId: string) =>
      fetchItem(this.context(session), { type, id }, itemId),
    );
  }

  /**
   * The entry of a customer's item. A client reads with its user's session;
   * server access needs none, so a server app's reads of one customer's item
   * share one entry whoever asks.
   */
  entry(session: Session | null, customer: ItemCustomer, itemId: string): CacheEntry<Item> {
    const reader = this.ctx.accessType() === "client" ? session : null;
    return this.#item.entry(reader, customer.type, customer.id, itemId);
  }

  /** How this app's item objects change quantities (server and admin apps), told to read the item again afterwards. */
  context(session: Session | null): ItemContext {
    const accessType = this.ctx.accessType();
    return {
      api: this.ctx.api,
      accessType,
      session: accessType === "client" ? session : null,
      changed: (customer, itemId) => this.changed(customer, itemId),
    };
  }

  /** A customer's item changed: every cached copy of it is read again where shown. */
  changed(customer: ItemCustomer, itemId: string): void {
    const prefix = `${QUERY}(`;
    this.ctx.cache.invalidateWhere(
      (entry) =>
        entry.key.startsWith(prefix) && entry.args[1] === customer.type && entry.args[2] === customer.id && entry.args[3] === itemId,
    );
  }
}
