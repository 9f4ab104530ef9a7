/**
 * Products: what a customer (a user, a team, or an id of the app's own) owns
 * of the project's plans and packs (`payments.products.<id>`), and how a
 * customer comes to own one: a checkout URL for the purchase page, or a
 * server's grant. A product list is a snapshot of when it was read; a change
 * made through the app (grant, cancellation) reads the customer's cached
 * products and items again.
 */
import type { InlineProduct, OwnedProductJson, ProductJson } from "@latchkey/shared/api/index";
import type { CustomerType } from "@latchkey/shared/constants";
import type { CacheEntry } from "../cache/entry.ts";
import type { AccessType, ApiClient } from "../interface/api-client.ts";
import type { Session } from "../session/session.ts";
import type { ItemCustomer, ItemCustomerOptions } from "./item.ts";
import type {
  CustomerBilling,
  CustomerDefaultPaymentMethod,
  CustomerInvoicesList,
  CustomerInvoicesListOptions,
  CustomerPaymentMethodSetupIntent,
} from "./billing.ts";

export type { InlineProduct };

/** One product a customer owns. */
export interface CustomerProduct {
  /** The configured product's id; null for a product granted inline. */
  readonly id: string | null;
  readonly quantity: number;
  readonly displayName: string;
  readonly customerType: CustomerType;
  readonly isServerOnly: boolean;
  readonly stackable: boolean;
  readonly type: "one_time" | "subscription";
  readonly subscription: null | {
    readonly subscriptionId: string | null;
    /** When the paid period ends (null: it renews with no end known yet). */
    readonly currentPeriodEnd: Date | null;
    /** Cancelled: owned until `currentPeriodEnd`, then gone. */
    readonly cancelAtPeriodEnd: boolean;
    readonly isCancelable: boolean;
  };
  /** Other subscription products of the same product line this one could be switched to. */
  readonly switchOptions?: ReadonlyArray<{ productId: string; displayName: string; prices: ProductJson["prices"] }>;
}

/** A page of a customer's products, oldest first; `nextCursor` reads the next page (null: the last). */
export type CustomerProductsList = CustomerProduct[] & { nextCursor: string | null };

export interface CustomerProductsListOptions {
  /** A previous page's `nextCursor`. */
  cursor?: string;
  /** At most this many (1–100; the server's default is 10). */
  limit?: number;
}

/** Whose products, and which page. */
export type CustomerProductsRequestOptions = ItemCustomerOptions & CustomerProductsListOptions;

/** A configured product by its id, or (server access only) a product described inline. */
export type ProductChoice = { productId: string } | { product: InlineProduct };

/** What a checkout URL sells, and where the purchase page leads back to (a trusted domain of the project). */
export type CheckoutUrlOptions = ProductChoice & { returnUrl?: string };

/** What a server grants without payment (`quantity` of a stackable product; 1 by default). */
export type GrantProductOptions = ProductChoice & { quantity?: number };

export interface CancelSubscriptionOptions {
  productId: string;
  /** Which subscription, when the customer holds several of the product. */
  subscriptionId?: string;
}

/** What a subscription moves to: another product of its product line, charged to the customer's saved card. */
export interface SwitchSubscriptionOptions {
  fromProductId: string;
  toProductId: string;
  /** One of the new product's renewing prices; its first when absent. */
  priceId?: string;
  /** The quantity after the switch (a stackable product); unchanged when absent. */
  quantity?: number;
}

/** One customer's products as a user or team object (or the app) reaches them. */
export interface CustomerPayments {
  productsEntry(options?: CustomerProductsListOptions): CacheEntry<CustomerProductsList>;
  createCheckoutUrl(options: CheckoutUrlOptions): Promise<string>;
  grantProduct(options: GrantProductOptions): Promise<void>;
  cancelSubscription(options: CancelSubscriptionOptions): Promise<void>;
  switchSubscription(options: SwitchSubscriptionOptions): Promise<void>;
  /** A user's or team's billing (models/billing.ts). */
  billingEntry(): CacheEntry<CustomerBilling>;
  invoicesEntry(options?: CustomerInvoicesListOptions): CacheEntry<CustomerInvoicesList>;
  createPaymentMethodSetupIntent(): Promise<CustomerPaymentMethodSetupIntent>;
  setDefaultPaymentMethodFromSetupIntent(setupIntentId: string): Promise<CustomerDefaultPaymentMethod | null>;
}

/** The app's product reads and changes, as user and team objects use them (apps/products.ts provides them). */
export interface ProductReads {
  of(session: Session | null, customer: ItemCustomer): CustomerPayments;
}

/** How a customer's product reads and writes reach the API. */
export interface ProductContext {
  api: ApiClient;
  accessType: AccessType;
  /** The signed-in user's session (client apps), else null. */
  session: Session | null;
  /** The customer's products (and so its items) changed: the app reads its cached copies again. */
  changed(customer: ItemCustomer): void;
}

function customerParams(customer: ItemCustomer) {
  return { customer_type: customer.type, customer_id: customer.id };
}

function productChoiceBody(choice: ProductChoice): { product_id: string } | { product_inline: InlineProduct } {
  const given = choice as Partial<{ productId: unknown; product: unknown }>;
  if ((given.productId === undefined) === (given.product === undefined)) {
    throw new TypeError("A product is exactly one of productId (a configured product) or product (an inline product).");
  }
  return given.productId !== undefined ? { product_id: String(given.productId) } : { product_inline: given.product as InlineProduct };
}

export async function fetchCustomerProducts(
  context: ProductContext,
  customer: ItemCustomer,
  options: CustomerProductsListOptions = {},
): Promise<CustomerProductsList> {
  const json = await context.api.call("GET /payments/products/:customer_type/:customer_id", {
    accessType: context.accessType,
    session: context.session,
    params: customerParams(customer),
    query: {
      ...(options.cursor === undefined ? {} : { cursor: options.cursor }),
      ...(options.limit === undefined ? {} : { limit: options.limit }),
    },
  });
  return Object.assign(json.items.map(customerProductFromJson), { nextCursor: json.pagination.next_cursor });
}

export function customerProductFromJson(json: OwnedProductJson): CustomerProduct {
  const product = json.product;
  return {
    id: json.id,
    quantity: json.quantity,
    displayName: product.display_name,
    customerType: product.customer_type,
    isServerOnly: product.server_only,
    stackable: product.stackable,
    type: json.type,
    subscription: json.subscription && {
      subscriptionId: json.subscription.subscription_id,
      currentPeriodEnd: json.subscription.current_period_end === null ? null : new Date(json.subscription.current_period_end),
      cancelAtPeriodEnd: json.subscription.cancel_at_period_end,
      isCancelable: json.subscription.is_cancelable,
    },
    ...(json.switch_options === undefined
      ? {}
      : {
          switchOptions: json.switch_options.map((option) => ({
            productId: option.product_id,
            displayName: option.product.display_name,
            prices: option.product.prices,
          })),
        }),
  };
}

/** A URL of the purchase page where the customer buys the product (valid 24 hours, once). */
export async function createCheckoutUrl(context: ProductContext, customer: ItemCustomer, options: CheckoutUrlOptions): Promise<string> {
  const json = await context.api.call("POST /payments/purchases/create-purchase-url", {
    accessType: context.accessType,
    session: context.session,
    body: {
      customer_type: customer.type,
      customer_id: customer.id,
      ...productChoiceBody(options),
      ...(options.returnUrl === undefined ? {} : { return_url: options.returnUrl }),
    },
  });
  return json.url;
}

/** Gives the customer a product without payment (server access). */
export async function grantProduct(context: ProductContext, customer: ItemCustomer, options: GrantProductOptions): Promise<void> {
  await context.api.call("POST /payments/products/:customer_type/:customer_id", {
    accessType: context.accessType as "server" | "admin",
    params: customerParams(customer),
    body: { ...productChoiceBody(options), ...(options.quantity === undefined ? {} : { quantity: options.quantity }) },
  });
  context.changed(customer);
}

/** Cancels a subscription: the customer keeps the product until the period ends. */
export async function cancelSubscription(
  context: ProductContext,
  customer: ItemCustomer,
  options: CancelSubscriptionOptions,
): Promise<void> {
  await context.api.call("DELETE /payments/products/:customer_type/:customer_id/:product_id", {
    accessType: context.accessType,
    session: context.session,
    params: { ...customerParams(customer), product_id: options.productId },
    query: options.subscriptionId === undefined ? {} : { subscription_id: options.subscriptionId },
  });
  context.changed(customer);
}

/**
 * Moves a user's or team's Stripe subscription to another product of its product line; Stripe charges the
 * prorated difference to the customer's default card at once (DEFAULT_PAYMENT_METHOD_REQUIRED when there is none).
 */
export async function switchSubscription(
  context: ProductContext,
  customer: ItemCustomer,
  options: SwitchSubscriptionOptions,
): Promise<void> {
  if (customer.type === "custom") throw new TypeError("Only a user's or a team's subscription can be switched.");
  await context.api.call("POST /payments/products/:customer_type/:customer_id/switch", {
    accessType: context.accessType,
    session: context.session,
    params: { customer_type: customer.type, customer_id: customer.id },
    body: {
      from_product_id: options.fromProductId,
      to_product_id: options.toProductId,
      ...(options.priceId === undefined ? {} : { price_id: options.priceId }),
      ...(options.quantity === undefined ? {} : { quantity: options.quantity }),
    },
  });
  context.changed(customer);
}
