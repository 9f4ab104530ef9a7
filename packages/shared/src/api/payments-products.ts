/**
 * Products: what a customer buys or is granted (a plan, an add-on, a pack
 * of credits), defined in the project's config (`payments.products.<id>`) or
 * passed inline by a server. A product has prices (one with an `interval`
 * makes a subscription, one without a one-time purchase) and includes items
 * (api/payments-items.ts), which reach the customer's item quantities while
 * they own it.
 *
 * A customer buys through a purchase URL: create-purchase-url makes a
 * single-use code (24 hours) for a customer and product, the purchase page
 * reads it with validate-code, and pays (Stripe, elsewhere) or, in test mode,
 * takes the product without paying (test-mode-purchase-session). A server
 * may also grant a product directly.
 */
import { z } from "zod";
import { CUSTOMER_TYPES } from "../constants.ts";
import { CURRENCY_CODES, currencyAmountsShape, paymentIntervalSchema } from "../money.ts";
import { KnownErrors } from "../known-errors/index.ts";
import { customerParams } from "./payments-items.ts";
import { jsonSchema } from "./json.ts";
import { defineEndpoint } from "./endpoint.ts";

/**
 * What the purchase page pays (or, in test mode, takes) a code's product with: the price, how many, and for a
 * price with amounts in several currencies the one the buyer chose (it must be one of the price's). Without
 * one, a price with a USD amount is charged in USD, any other in its first currency.
 */
export const purchaseSessionBody = z.strictObject({
  full_code: z.string(),
  price_id: z.string(),
  quantity: z.number().int().min(1).default(1),
  currency: z.enum(CURRENCY_CODES).optional(),
});
export type PurchaseSessionBody = z.infer<typeof purchaseSessionBody>;

export const INCLUDED_ITEM_EXPIRIES = ["never", "when-purchase-expires", "when-repeated"] as const;

const includedItemSchema = z.strictObject({
  quantity: z.number().int().min(0).default(0),
  /** How often the quantity is granted again; `never`: once, at the purchase. */
  repeat: z.union([paymentIntervalSchema, z.literal("never")]).default("never"),
  expires: z.enum(INCLUDED_ITEM_EXPIRIES).default("never"),
});

const inlinePriceSchema = z.strictObject({
  ...currencyAmountsShape,
  interval: paymentIntervalSchema.optional(),
  free_trial: paymentIntervalSchema.optional(),
});

const metadataSchema = jsonSchema.nullable().optional();

/** A product passed in a request instead of a configured one's id (server access only). */
export const inlineProductSchema = z.strictObject({
  display_name: z.string(),
  customer_type: z.enum(CUSTOMER_TYPES),
  free_trial: paymentIntervalSchema.optional(),
  server_only: z.boolean().default(true),
  stackable: z.boolean().default(false),
  prices: z.record(z.string(), inlinePriceSchema),
  included_items: z.record(z.string(), includedItemSchema).default({}),
  client_metadata: metadataSchema,
  client_read_only_metadata: metadataSchema,
  server_metadata: metadataSchema,
});
export type InlineProduct = z.input<typeof inlineProductSchema>;

const includedItemJson = z.strictObject({
  quantity: z.number().int(),
  repeat: z.union([paymentIntervalSchema, z.literal("never")]),
  expires: z.enum(INCLUDED_ITEM_EXPIRIES),
});

/** How answers show a product (configured or inline); metadata is null when unset. */
export const productJson = z.strictObject({
  display_name: z.string(),
  customer_type: z.enum(CUSTOMER_TYPES),
  product_line_id: z.string().optional(),
  free_trial: paymentIntervalSchema.optional(),
  server_only: z.boolean(),
  stackable: z.boolean(),
  prices: z.record(z.string(), inlinePriceSchema),
  included_items: z.record(z.string(), includedItemJson),
  client_metadata: jsonSchema.nullable(),
  client_read_only_metadata: jsonSchema.nullable(),
  server_metadata: jsonSchema.nullable(),
});
export type ProductJson = z.infer<typeof productJson>;

export const OWNED_PRODUCT_TYPES = ["one_time", "subscription"] as const;

export const ownedProductJson = z.strictObject({
  /** The configured product's id; null for an inline product. */
  id: z.string().nullable(),
  quantity: z.number().int(),
  product: productJson,
  type: z.enum(OWNED_PRODUCT_TYPES),
  subscription: z
    .strictObject({
      subscription_id: z.string(),
      current_period_end: z.iso.datetime({ offset: true }).nullable(),
      cancel_at_period_end: z.boolean(),
      /** False for an inline product's subscription (nothing to name it by). */
      is_cancelable: z.boolean(),
    })
    .nullable(),
  /** Other subscription products of the same product line it could be switched to. */
  switch_options: z.array(z.strictObject({ product_id: z.string(), product: productJson })).optional(),
});
export type OwnedProductJson = z.infer<typeof ownedProductJson>;

export const OWNED_PRODUCTS_DEFAULT_LIMIT = 10;

export const listOwnedProductsQuery = z.strictObject({
  /** The id of the first entry of the page (a previous page's `next_cursor`). */
  cursor: z.string().optional(),
  limit: z.coerce.number().int().min(1).max(100).optional(),
});

export const ownedProductsListJson = z.strictObject({
  items: z.array(ownedProductJson),
  is_paginated: z.literal(true),
  pagination: z.strictObject({ next_cursor: z.string().nullable() }),
});

export const grantProductBody = z.strictObject({
  product_id: z.string().optional(),
  product_inline: inlineProductSchema.optional(),
  quantity: z.number().int().min(1).default(1),
});
export type GrantProductBody = z.input<typeof grantProductBody>;

export const productParams = customerParams.extend({ product_id: z.string() });

export const createPurchaseUrlBody = z.strictObject({
  customer_type: z.enum(CUSTOMER_TYPES),
  customer_id: z.string(),
  product_id: z.string().optional(),
  product_inline: inlineProductSchema.optional(),
  return_url: z.url().optional(),
  /** The older names (before offers became products); /api/latest refuses them. */
  offer_id: z.string().optional(),
  offer_inline: inlineProductSchema.optional(),
});
export type CreatePurchaseUrlBody = z.input<typeof createPurchaseUrlBody>;

export const validatePurchaseCodeJson = z.strictObject({
  /** The product as the purchase page shows it (no server-only fields). */
  product: productJson.omit({ server_only: true, included_items: true, server_metadata: true }),
  project_id: z.string(),
  project_logo_url: z.string().nullable(),
  /** Null while the project has no Stripe account (test mode needs none). */
  stripe_account_id: z.string().nullable(),
  charges_enabled: z.boolean(),
  already_bought_non_stackable: z.boolean(),
  /** Owned products of the same product line that a subscription bought with this code replaces. */
  conflicting_products: z.array(z.strictObject({ product_id: z.string(), display_name: z.string() })),
  test_mode: z.boolean(),
});

/**
 * What the purchase page and its return page load Stripe.js with: the publishable key (the operator's platform
 * key for a connected account, the project's own for an own-key account) and the connected account to act on.
 * It answers for a code already used too (the return page reads it after the payment), until the code expires.
 */
/** How a page loads Stripe.js to take a card on the project's Stripe account (the purchase page, billing). */
export const stripeCardFormJson = z.strictObject({
  /** Null when the project has no Stripe account, or its publishable key was never given: no card form. */
  publishable_key: z.string().nullable(),
  /** The connected account Stripe.js acts on (`stripeAccount`); null for an own-key account (the key's own). */
  stripe_account_id: z.string().nullable(),
});
export type StripeCardFormJson = z.infer<typeof stripeCardFormJson>;

export const purchaseCardSettingsJson = stripeCardFormJson.extend({
  /** Whether the `return_url` asked about is on one of the project's trusted domains (false when none was given). */
  return_url_trusted: z.boolean(),
});
export type PurchaseCardSettingsJson = z.infer<typeof purchaseCardSettingsJson>;

/** A switch moves a user's or a team's subscription (a custom customer has no card to charge). */
export const switchSubscriptionParams = z.strictObject({ customer_type: z.enum(["user", "team"]), customer_id: z.string() });

export const switchSubscriptionBody = z.strictObject({
  from_product_id: z.string(),
  to_product_id: z.string(),
  /** One of the target's renewing prices; its first when absent. */
  price_id: z.string().optional(),
  /** The subscription's quantity after the switch; unchanged when absent. */
  quantity: z.number().int().min(1).optional(),
});
export type SwitchSubscriptionBody = z.infer<typeof switchSubscriptionBody>;

const PRODUCT_ERRORS = [
  KnownErrors.ProductDoesNotExist,
  KnownErrors.ProductCustomerTypeDoesNotMatch,
  KnownErrors.UserNotFound,
  KnownErrors.TeamNotFound,
] as const;
const CLIENT_ACCESS_ERRORS = [KnownErrors.TeamMembershipNotFound, KnownErrors.TeamPermissionRequired] as const;

/** The payments test clock: how far this project's payments time runs ahead of the server's. */
export const paymentsTestClockJson = z.strictObject({
  offset_ms: z.number().int(),
  now_millis: z.number().int(),
  test_mode: z.boolean(),
});

export const paymentsProductsEndpoints = {
  listOwnedProducts: defineEndpoint({
    method: "GET",
    path: "/payments/products/:customer_type/:customer_id",
    summary: "The products a customer owns, oldest first",
    tags: ["Payments"],
    access: ["client", "server", "admin"],
    params: customerParams,
    query: listOwnedProductsQuery,
    response: ownedProductsListJson,
    errors: [KnownErrors.UserNotFound, KnownErrors.TeamNotFound, ...CLIENT_ACCESS_ERRORS],
  }),
  grantProduct: defineEndpoint({
    method: "POST",
    path: "/payments/products/:customer_type/:customer_id",
    summary: "Grant a product to a customer without payment",
    tags: ["Payments"],
    access: ["server", "admin"],
    params: customerParams,
    body: grantProductBody,
    response: z.strictObject({ success: z.literal(true), subscription_id: z.string().optional() }),
    errors: [...PRODUCT_ERRORS, KnownErrors.ProductAlreadyGranted],
  }),
  cancelProduct: defineEndpoint({
    method: "DELETE",
    path: "/payments/products/:customer_type/:customer_id/:product_id",
    summary: "Cancel a customer's subscription to a product (it stays owned until the period ends)",
    tags: ["Payments"],
    access: ["client", "server", "admin"],
    params: productParams,
    query: z.strictObject({ subscription_id: z.string().optional() }),
    response: z.strictObject({ success: z.literal(true) }),
    errors: [...PRODUCT_ERRORS, ...CLIENT_ACCESS_ERRORS],
  }),
  switchSubscription: defineEndpoint({
    method: "POST",
    path: "/payments/products/:customer_type/:customer_id/switch",
    summary: "Move a subscription to another product of its product line, charged to the customer's default card",
    tags: ["Payments"],
    access: ["client", "server", "admin"],
    params: switchSubscriptionParams,
    body: switchSubscriptionBody,
    response: z.strictObject({ success: z.literal(true) }),
    errors: [
      KnownErrors.NewPurchasesBlocked,
      KnownErrors.DefaultPaymentMethodRequired,
      KnownErrors.UserNotFound,
      KnownErrors.TeamNotFound,
      ...CLIENT_ACCESS_ERRORS,
    ],
  }),
  createPurchaseUrl: defineEndpoint({
    method: "POST",
    path: "/payments/purchases/create-purchase-url",
    summary: "A URL where the customer buys a product",
    tags: ["Payments"],
    access: ["client", "server", "admin"],
    body: createPurchaseUrlBody,
    response: z.strictObject({ url: z.string() }),
    errors: [
      ...PRODUCT_ERRORS,
      ...CLIENT_ACCESS_ERRORS,
      KnownErrors.ProductAlreadyGranted,
      KnownErrors.RedirectUrlNotWhitelisted,
      KnownErrors.NewPurchasesBlocked,
    ],
  }),
  validatePurchaseCode: defineEndpoint({
    method: "POST",
    path: "/payments/purchases/validate-code",
    summary: "What a purchase code is for (the purchase page)",
    tags: ["Payments"],
    access: "public",
    body: z.strictObject({ full_code: z.string(), return_url: z.url().optional() }),
    response: validatePurchaseCodeJson,
    errors: [KnownErrors.VerificationCodeNotFound, KnownErrors.RedirectUrlNotWhitelisted],
  }),
  purchaseCardSettings: defineEndpoint({
    method: "POST",
    path: "/payments/purchases/card-settings",
    summary: "How the purchase page takes a card for a purchase code (used or not), and whether its return URL is trusted",
    tags: ["Payments"],
    access: "public",
    body: z.strictObject({ full_code: z.string(), return_url: z.url().optional() }),
    response: purchaseCardSettingsJson,
    errors: [KnownErrors.VerificationCodeNotFound],
  }),
  purchaseSession: defineEndpoint({
    method: "POST",
    path: "/payments/purchases/purchase-session",
    summary: "Start paying for a purchase code with Stripe: the client secret the purchase page confirms",
    tags: ["Payments"],
    access: "public",
    body: purchaseSessionBody,
    response: z.strictObject({ client_secret: z.string() }),
    errors: [
      KnownErrors.VerificationCodeNotFound,
      KnownErrors.NewPurchasesBlocked,
      KnownErrors.ProductAlreadyGranted,
      KnownErrors.UserNotFound,
      KnownErrors.TeamNotFound,
    ],
  }),
  testModePurchaseSession: defineEndpoint({
    method: "POST",
    path: "/internal/payments/test-mode-purchase-session",
    summary: "Take the product of a purchase code without paying (test mode)",
    tags: ["Payments"],
    access: "public",
    body: purchaseSessionBody,
    response: z.strictObject({ success: z.literal(true) }),
    errors: [
      KnownErrors.VerificationCodeNotFound,
      KnownErrors.NewPurchasesBlocked,
      KnownErrors.ProductAlreadyGranted,
      KnownErrors.UserNotFound,
      KnownErrors.TeamNotFound,
    ],
  }),
  getPaymentsTestClock: defineEndpoint({
    method: "GET",
    path: "/internal/payments/test-clock",
    summary: "How far this project's payments test clock runs ahead",
    tags: ["Payments"],
    access: ["admin"],
    response: paymentsTestClockJson,
  }),
  advancePaymentsTestClock: defineEndpoint({
    method: "POST",
    path: "/internal/payments/test-clock/advance",
    summary: "Move this project's payments time forward (test mode): renewals and period ends arrive early",
    tags: ["Payments"],
    access: ["admin"],
    body: z.strictObject({ ms: z.number().int().min(1) }),
    response: paymentsTestClockJson,
  }),
};
