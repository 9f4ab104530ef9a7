/**
 * An app's cached product reads (see cache/query.ts): one entry per customer
 * and page, shared by `app.listProducts`, `user.listProducts`,
 * `team.listProducts` and the `useProducts` hook. A grant or cancellation
 * made through this app reads that customer's products and items again.
 */
import { CachedQuery, type CacheStore } from "../cache/index.ts";
import type { AccessType, ApiClient } from "../interface/api-client.ts";
import type { ItemCustomer } from "../models/item.ts";
import {
  cancelSubscription,
  createCheckoutUrl,
  fetchCustomerProducts,
  grantProduct,
  switchSubscription,
  type CustomerPayments,
  type CustomerProductsList,
  type ProductContext,
  type ProductReads,
} from "../models/product.ts";
import type { Session } from "../session/session.ts";
import {
  createPaymentMethodSetupIntent,
  fetchCustomerBilling,
  fetchCustomerInvoices,
  setDefaultPaymentMethodFromSetupIntent,
  type CustomerBilling,
  type CustomerInvoicesList,
} from "../models/billing.ts";

export interface AppProductsContext {
  api: ApiClient;
  /** The app's access, asked when used (a subclass app sets its own after the base constructor ran). */
  accessType(): AccessType;
  cache: CacheStore;
}

const QUERY = "products";
/** A customer's billing (its default card) and its invoices' pages. */
const BILLING_QUERY = "billing";
const INVOICES_QUERY = "invoices";
/** The item query of apps/items.ts: a customer's items change with its products. */
const ITEM_QUERY = "item";

export class AppProducts implements ProductReads {
  readonly #products: CachedQuery<[Session | null, ItemCustomer["type"], string, string | null, number | null], CustomerProductsList>;
  readonly #billing: CachedQuery<[Session | null, ItemCustomer["type"], string], CustomerBilling>;
  readonly #invoices: CachedQuery<[Session | null, ItemCustomer["type"], string, string | null, number | null], CustomerInvoicesList>;

  constructor(private readonly ctx: AppProductsContext) {
    this.#products = new CachedQuery(
      ctx.cache,
      QUERY,
      (session: Session | null, type: ItemCustomer["type"], id: string, cursor: string | null, limit: number | null) =>
        fetchCustomerProducts(
          this.context(session),
          { type, id },
          { ...(cursor === null ? {} : { cursor }), ...(limit === null ? {} : { limit }) },
        ),
    );
    this.#billing = new CachedQuery(ctx.cache, BILLING_QUERY, (session: Session | null, type: ItemCustomer["type"], id: string) =>
      fetchCustomerBilling(this.context(session), { type, id }),
    );
    this.#invoices = new CachedQuery(
      ctx.cache,
      INVOICES_QUERY,
      (session: Session | null, type: ItemCustomer["type"], id: string, cursor: string | null, limit: number | null) =>
        fetchCustomerInvoices(
          this.context(session),
          { type, id },
          { ...(cursor === null ? {} : { cursor }), ...(limit === null ? {} : { limit }) },
        ),
    );
  }

  /** A customer's products, read with the user's session from a client and with none from a server. */
  of(session: Session | null, customer: ItemCustomer): CustomerPayments {
    const context = this.context(session);
    return {
      productsEntry: (options = {}) =>
        this.#products.entry(context.session, customer.type, customer.id, options.cursor ?? null, options.limit ?? null),
      createCheckoutUrl: (options) => createCheckoutUrl(context, customer, options),
      grantProduct: (options) => grantProduct(context, customer, options),
      cancelSubscription: (options) => cancelSubscription(context, customer, options),
      switchSubscription: (options) => switchSubscription(context, customer, options),
      billingEntry: () => this.#billing.entry(context.session, customer.type, customer.id),
      invoicesEntry: (options = {}) =>
        this.#invoices.entry(context.session, customer.type, customer.id, options.cursor ?? null, options.limit ?? null),
      createPaymentMethodSetupIntent: async () => {
        const intent = await createPaymentMethodSetupIntent(context, customer);
        // The customer may be known to Stripe from now on.
        this.billingChanged(customer);
        return intent;
      },
      setDefaultPaymentMethodFromSetupIntent: async (setupIntentId) => {
        const card = await setDefaultPaymentMethodFromSetupIntent(context, customer, setupIntentId);
        this.billingChanged(customer);
        return card;
      },
    };
  }

  private context(session: Session | null): ProductContext {
    const accessType = this.ctx.accessType();
    return {
      api: this.ctx.api,
      accessType,
      session: accessType === "client" ? session : null,
      changed: (customer) => this.changed(customer),
    };
  }

  /** A customer's products changed (and with them its items): every cached copy is read again where shown. */
  changed(customer: ItemCustomer): void {
    this.ctx.cache.invalidateWhere(
      (entry) =>
        (entry.key.startsWith(`${QUERY}(`) || entry.key.startsWith(`${ITEM_QUERY}(`)) &&
        entry.args[1] === customer.type &&
        entry.args[2] === customer.id,
    );
  }

  /** A customer's default card changed: its cached billing is read again where shown. */
  billingChanged(customer: ItemCustomer): void {
    this.ctx.cache.invalidateWhere(
      (entry) => entry.key.startsWith(`${BILLING_QUERY}(`) && entry.args[1] === customer.type && entry.args[2] === customer.id,
    );
  }

  /** Payments time moved (the test clock): every customer's products and items are read again. */
  allChanged(): void {
    this.ctx.cache.invalidateWhere((entry) => entry.key.startsWith(`${QUERY}(`) || entry.key.startsWith(`${ITEM_QUERY}(`));
  }
}
