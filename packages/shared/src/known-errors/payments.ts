/**
 * Payments' coded errors. The messages are those the official SDK's users
 * see from the system we replace, word for word: apps and their test suites
 * compare them. The OFFER_* codes are the older names of the PRODUCT_* ones
 * (renamed when offers became products); the server answers with the
 * product names only, and the SDK still rebuilds an OFFER_* error an older
 * server sends.
 */
import type { CustomerType } from "../constants.ts";
import { defineKnownError } from "./base.ts";

export const ItemNotFound = defineKnownError("ITEM_NOT_FOUND", 404, (itemId: string) => ({
  message: `Item with ID ${JSON.stringify(itemId)} not found.`,
  details: { item_id: itemId },
}));

/** Why a customer is not one: the configured type, or (for a config without one) what is missing. */
function customerTypeClause(what: "item" | "product", configured: string | null, actual: string): string {
  return configured
    ? `The ${what} is configured to only be available for ${configured} customers, but the customer is a ${actual}.`
    : `The ${what} is missing a customer type field. Please make sure it is set up correctly in your project configuration.`;
}

export const ItemCustomerTypeDoesNotMatch = defineKnownError(
  "ITEM_CUSTOMER_TYPE_DOES_NOT_MATCH",
  400,
  (itemId: string, customerId: string, itemCustomerType: string | null, actualCustomerType: string) => ({
    message: `The ${actualCustomerType} with ID ${JSON.stringify(customerId)} is not a valid customer for the item with ID ${JSON.stringify(itemId)}. ${customerTypeClause("item", itemCustomerType, actualCustomerType)}`,
    details: {
      item_id: itemId,
      customer_id: customerId,
      item_customer_type: itemCustomerType,
      actual_customer_type: actualCustomerType,
    },
  }),
);

export const CustomerDoesNotExist = defineKnownError("CUSTOMER_DOES_NOT_EXIST", 400, (customerId: string) => ({
  message: `Customer with ID ${JSON.stringify(customerId)} does not exist.`,
  details: { customer_id: customerId },
}));

/** `context`: why a product that may exist is refused (`server_only` from a client), or a hint (`item_exists`). */
export type ProductMissingContext = "server_only" | "item_exists" | null;

export const ProductDoesNotExist = defineKnownError("PRODUCT_DOES_NOT_EXIST", 400, (productId: string, context: ProductMissingContext) => ({
  message: `Product with ID ${JSON.stringify(productId)} ${
    context === "server_only"
      ? "is marked as server-only and cannot be accessed client side."
      : context === "item_exists"
        ? "does not exist, but an item with this ID exists."
        : "does not exist."
  }`,
  details: { product_id: productId, context },
}));

export const ProductCustomerTypeDoesNotMatch = defineKnownError(
  "PRODUCT_CUSTOMER_TYPE_DOES_NOT_MATCH",
  400,
  (productId: string | null, customerId: string, productCustomerType: string | null, actualCustomerType: string) => ({
    message: `The ${actualCustomerType} with ID ${JSON.stringify(customerId)} is not a valid customer for the inline product that has been passed in. ${customerTypeClause("product", productCustomerType, actualCustomerType)}`,
    details: {
      product_id: productId,
      customer_id: customerId,
      product_customer_type: productCustomerType,
      actual_customer_type: actualCustomerType,
    },
  }),
);

export const ProductAlreadyGranted = defineKnownError("PRODUCT_ALREADY_GRANTED", 400, (productId: string, customerId: string) => ({
  message: `Customer with ID ${JSON.stringify(customerId)} already owns product ${JSON.stringify(productId)}.`,
  details: { product_id: productId, customer_id: customerId },
}));

export const OfferDoesNotExist = defineKnownError("OFFER_DOES_NOT_EXIST", 400, (offerId: string) => ({
  message: `Offer with ID ${JSON.stringify(offerId)} does not exist.`,
  details: { offer_id: offerId },
}));

export const OfferCustomerTypeDoesNotMatch = defineKnownError(
  "OFFER_CUSTOMER_TYPE_DOES_NOT_MATCH",
  400,
  (offerId: string, customerId: string, offerCustomerType: string | null, actualCustomerType: string) => ({
    message: `The ${actualCustomerType} with ID ${JSON.stringify(customerId)} is not a valid customer for the offer with ID ${JSON.stringify(offerId)}.`,
    details: {
      offer_id: offerId,
      customer_id: customerId,
      offer_customer_type: offerCustomerType,
      actual_customer_type: actualCustomerType,
    },
  }),
);

export const ItemQuantityInsufficientAmount = defineKnownError(
  "ITEM_QUANTITY_INSUFFICIENT_AMOUNT",
  400,
  (itemId: string, customerId: string, quantity: number) => ({
    message: `The item with ID ${JSON.stringify(itemId)} has an insufficient quantity for the customer with ID ${JSON.stringify(customerId)}. An attempt was made to charge ${quantity} credits.`,
    details: { item_id: itemId, customer_id: customerId, quantity },
  }),
);

export const SubscriptionInvoiceNotFound = defineKnownError("SUBSCRIPTION_INVOICE_NOT_FOUND", 404, (invoiceId: string) => ({
  message: `Subscription invoice with ID ${JSON.stringify(invoiceId)} does not exist.`,
  details: { subscription_invoice_id: invoiceId },
}));

export const OneTimePurchaseNotFound = defineKnownError("ONE_TIME_PURCHASE_NOT_FOUND", 404, (purchaseId: string) => ({
  message: `One-time purchase with ID ${JSON.stringify(purchaseId)} does not exist.`,
  details: { one_time_purchase_id: purchaseId },
}));

export const SubscriptionAlreadyRefunded = defineKnownError("SUBSCRIPTION_ALREADY_REFUNDED", 400, (subscriptionId: string) => ({
  message: `Subscription with ID ${JSON.stringify(subscriptionId)} was already refunded.`,
  details: { subscription_id: subscriptionId },
}));

export const OneTimePurchaseAlreadyRefunded = defineKnownError("ONE_TIME_PURCHASE_ALREADY_REFUNDED", 400, (purchaseId: string) => ({
  message: `One-time purchase with ID ${JSON.stringify(purchaseId)} was already refunded.`,
  details: { one_time_purchase_id: purchaseId },
}));

export const TestModePurchaseNonRefundable = defineKnownError("TEST_MODE_PURCHASE_NON_REFUNDABLE", 400, () => ({
  message: "Test mode purchases are not refundable.",
}));

export const StripeAccountInfoNotFound = defineKnownError("STRIPE_ACCOUNT_INFO_NOT_FOUND", 404, () => ({
  message: "Stripe account information not found. Please make sure the user has onboarded with Stripe.",
}));

export const DefaultPaymentMethodRequired = defineKnownError(
  "DEFAULT_PAYMENT_METHOD_REQUIRED",
  400,
  (customerType: CustomerType, customerId: string) => ({
    message: "No default payment method is set for this customer.",
    details: { customer_type: customerType, customer_id: customerId },
  }),
);

export const NewPurchasesBlocked = defineKnownError("NEW_PURCHASES_BLOCKED", 403, () => ({
  message: "New purchases are currently blocked for this project. Please contact support for more information.",
}));
