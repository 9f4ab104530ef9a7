/**
 * What the signed-in user holds: their API keys, their quantities of items,
 * the products they own or may buy, and their billing (card, invoices). The part of CurrentUser that reaches
 * API keys and payments; each method hands over to the models of those.
 */
import type { CacheEntry } from "../cache/entry.ts";
import { UserWithConnections } from "./current-user-connections.ts";
import type { Item } from "./item.ts";
import type { CustomerPayments, CustomerProductsList, CustomerProductsListOptions, SwitchSubscriptionOptions } from "./product.ts";
import type {
  CustomerBilling,
  CustomerDefaultPaymentMethod,
  CustomerInvoicesList,
  CustomerInvoicesListOptions,
  CustomerPaymentMethodSetupIntent,
} from "./billing.ts";
import { createUserApiKey, type ApiKeyCreationOptions, type UserApiKey, type UserApiKeyFirstView } from "./user-team-api-key.ts";

export abstract class UserWithHoldings extends UserWithConnections {
  // -------------------------------------------------------------------------
  // API keys

  /** A new API key of this user; its `value` is the whole key, this once (listed keys show the last four characters). */
  createApiKey(options: ApiKeyCreationOptions): Promise<UserApiKeyFirstView> {
    return createUserApiKey(this.context.apiKeyContext(), options);
  }

  /** This user's API keys, newest first, revoked and expired ones included. */
  listApiKeys(): Promise<UserApiKey[]> {
    return this.context.apiKeys().get();
  }

  /** The cache entry behind `listApiKeys`, for hooks (`useApiKeys` of @latchkey/react). */
  _apiKeysEntry(): CacheEntry<UserApiKey[]> {
    return this.context.apiKeys();
  }

  // -------------------------------------------------------------------------
  // Items

  /** This user's quantity of an item (`payments.items.<id>`, for users). */
  getItem(itemId: string): Promise<Item> {
    return this._itemEntry(itemId).get();
  }

  /** The cache entry behind `getItem`, for hooks (`useItem(user, itemId)` of @latchkey/react). */
  _itemEntry(itemId: string): CacheEntry<Item> {
    return this.context.items.entry(this.session, { type: "user", id: this.id }, itemId);
  }

  // -------------------------------------------------------------------------
  // Products

  /** A page of the products this user owns, oldest first (server-only products are hidden from a client). */
  listProducts(options: CustomerProductsListOptions = {}): Promise<CustomerProductsList> {
    return this._productsEntry(options).get();
  }

  /** The cache entry behind `listProducts`, for hooks (`useProducts(user)` of @latchkey/react). */
  _productsEntry(options: CustomerProductsListOptions = {}): CacheEntry<CustomerProductsList> {
    return this.payments().productsEntry(options);
  }

  /** The URL of the purchase page where this user buys a product (valid 24 hours, once). */
  createCheckoutUrl(options: { productId: string; returnUrl?: string }): Promise<string> {
    return this.payments().createCheckoutUrl(options);
  }

  /** Moves this user's subscription to another product of its product line, charged to their saved card. */
  switchSubscription(options: SwitchSubscriptionOptions): Promise<void> {
    return this.payments().switchSubscription(options);
  }

  // -------------------------------------------------------------------------
  // Billing

  /** Whether Stripe knows this user, and the card this user's subscriptions are charged to. */
  getBilling(): Promise<CustomerBilling> {
    return this._billingEntry().get();
  }

  /** The cache entry behind `getBilling`, for hooks. */
  _billingEntry(): CacheEntry<CustomerBilling> {
    return this.payments().billingEntry();
  }

  /** A page of the invoices of this user's subscriptions, newest first. */
  listInvoices(options: CustomerInvoicesListOptions = {}): Promise<CustomerInvoicesList> {
    return this._invoicesEntry(options).get();
  }

  /** The cache entry behind `listInvoices`, for hooks. */
  _invoicesEntry(options: CustomerInvoicesListOptions = {}): CacheEntry<CustomerInvoicesList> {
    return this.payments().invoicesEntry(options);
  }

  /** A Stripe SetupIntent that saves a card for this user: confirm it with Stripe's card form, on `stripeAccountId`. */
  createPaymentMethodSetupIntent(): Promise<CustomerPaymentMethodSetupIntent> {
    return this.payments().createPaymentMethodSetupIntent();
  }

  /** Makes the card a succeeded SetupIntent saved this user's default; answers the default card after. */
  setDefaultPaymentMethodFromSetupIntent(setupIntentId: string): Promise<CustomerDefaultPaymentMethod | null> {
    return this.payments().setDefaultPaymentMethodFromSetupIntent(setupIntentId);
  }

  protected payments(): CustomerPayments {
    return this.context.products.of(this.session, { type: "user", id: this.id });
  }
}
