/**
 * What the purchase page does with a purchase code (the `<full_code>` of a
 * checkout URL): read what it sells, and take the product: in test mode
 * without paying, otherwise paid by card (the client secret Stripe.js
 * confirms, and the settings it is loaded with). Neither needs a signed-in user or a key: the code is the
 * credential. The code belongs to another project than the page's app (the
 * dashboard's), so the project's name is read with that project's id.
 */
import type { ProductJson } from "@latchkey/shared/api/index";
import type { Currency, CustomerType } from "@latchkey/shared/constants";
import { ApiClient } from "../interface/api-client.ts";
import { stripeCardFormFromJson, type StripeCardForm } from "../models/stripe-card-form.ts";

export interface PurchaseCodeInfo {
  projectId: string;
  /** Null when the project's public settings could not be read (it requires a publishable key). */
  projectDisplayName: string | null;
  projectLogoUrl: string | null;
  product: {
    displayName: string;
    customerType: CustomerType;
    stackable: boolean;
    /** The wire's prices by id: amounts per currency, `interval` and `free_trial` as `[count, unit]`. */
    prices: ProductJson["prices"];
    freeTrial: NonNullable<ProductJson["free_trial"]> | null;
  };
  /** The customer already owns this product and may not own it twice. */
  alreadyBoughtNonStackable: boolean;
  /** Products of the same line this purchase replaces. */
  conflictingProducts: { productId: string; displayName: string }[];
  /** The project takes products without payment (payments test mode). */
  testMode: boolean;
  /** The project's Stripe account takes card payments. */
  chargesEnabled: boolean;
}

export async function readPurchaseCode(api: ApiClient, fullCode: string, returnUrl?: string): Promise<PurchaseCodeInfo> {
  const json = await api.call("POST /payments/purchases/validate-code", {
    accessType: "client",
    body: { full_code: fullCode, ...(returnUrl === undefined ? {} : { return_url: returnUrl }) },
  });
  return {
    projectId: json.project_id,
    projectDisplayName: await projectName(api, json.project_id),
    projectLogoUrl: json.project_logo_url,
    product: {
      displayName: json.product.display_name,
      customerType: json.product.customer_type,
      stackable: json.product.stackable,
      prices: json.product.prices,
      freeTrial: json.product.free_trial ?? null,
    },
    alreadyBoughtNonStackable: json.already_bought_non_stackable,
    conflictingProducts: json.conflicting_products.map((p) => ({ productId: p.product_id, displayName: p.display_name })),
    testMode: json.test_mode,
    chargesEnabled: json.charges_enabled,
  };
}

async function projectName(api: ApiClient, projectId: string): Promise<string | null> {
  const projectApi = new ApiClient({ baseUrl: api.baseUrl, projectId });
  try {
    return (await projectApi.call("GET /projects/current", { accessType: "client" })).display_name;
  } catch {
    // The page still sells without the name: the logo (if any) and the product say whose it is.
    return null;
  }
}

/** Takes the code's product at `priceId` without paying (test mode); the code is used up. */
export async function completeTestModePurchase(api: ApiClient, options: PurchaseSessionOptions): Promise<void> {
  await api.call("POST /internal/payments/test-mode-purchase-session", { accessType: "client", body: purchaseSessionBody(options) });
}

/** What the purchase page buys a code's product with; `currency` is one of the price's (the server's default without it). */
export interface PurchaseSessionOptions {
  fullCode: string;
  priceId: string;
  quantity?: number;
  currency?: Currency;
}

function purchaseSessionBody(options: PurchaseSessionOptions) {
  return {
    full_code: options.fullCode,
    price_id: options.priceId,
    ...(options.quantity === undefined ? {} : { quantity: options.quantity }),
    ...(options.currency === undefined ? {} : { currency: options.currency }),
  };
}

/** How the purchase page loads Stripe.js for a code (used or not, until it expires). */
export interface PurchaseCardSettings extends StripeCardForm {
  /** The `returnUrl` asked about is on one of the project's trusted domains. */
  returnUrlTrusted: boolean;
}

export async function readPurchaseCardSettings(api: ApiClient, fullCode: string, returnUrl?: string): Promise<PurchaseCardSettings> {
  const json = await api.call("POST /payments/purchases/card-settings", {
    accessType: "client",
    body: { full_code: fullCode, ...(returnUrl === undefined ? {} : { return_url: returnUrl }) },
  });
  return { ...stripeCardFormFromJson(json), returnUrlTrusted: json.return_url_trusted };
}

/** Starts paying for the code at `priceId`: the client secret Stripe.js confirms the card payment with. The code is used up. */
export async function startCardPurchase(api: ApiClient, options: PurchaseSessionOptions): Promise<string> {
  const json = await api.call("POST /payments/purchases/purchase-session", { accessType: "client", body: purchaseSessionBody(options) });
  return json.client_secret;
}
