import { defineKnownError } from "./base.ts";

export const ItemNotFound = defineKnownError("ITEM_NOT_FOUND", 404, (itemId: string) => ({
  message: `Item ${JSON.stringify(itemId)} not found.`,
  details: { item_id: itemId },
}));

export const ItemCustomerTypeDoesNotMatch = defineKnownError(
  "ITEM_CUSTOMER_TYPE_DOES_NOT_MATCH",
  400,
  (itemId: string, customerId: string, itemCustomerType: string | null, actualCustomerType: string) => ({
    message: `Item ${JSON.stringify(itemId)} is for customers of type ${itemCustomerType ?? "(unknown)"}, but customer ${JSON.stringify(customerId)} is of type ${actualCustomerType}.`,
    details: {
      item_id: itemId,
      customer_id: customerId,
      item_customer_type: itemCustomerType,
      actual_customer_type: actualCustomerType,
    },
  }),
);

export const CustomerDoesNotExist = defineKnownError("CUSTOMER_DOES_NOT_EXIST", 400, (customerId: string) => ({
  message: `Customer ${JSON.stringify(customerId)} does not exist.`,
  details: { customer_id: customerId },
}));

export const OfferDoesNotExist = defineKnownError("OFFER_DOES_NOT_EXIST", 400, (offerId: string) => ({
  message: `Offer ${JSON.stringify(offerId)} does not exist.`,
  details: { offer_id: offerId },
}));

export const OfferCustomerTypeDoesNotMatch = defineKnownError(
  "OFFER_CUSTOMER_TYPE_DOES_NOT_MATCH",
  400,
  (offerId: string, customerId: string, offerCustomerType: string | null, actualCustomerType: string) => ({
    message: `Offer ${JSON.stringify(offerId)} is for customers of type ${offerCustomerType ?? "(unknown)"}, but customer ${JSON.stringify(customerId)} is of type ${actualCustomerType}.`,
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
    message: `Customer ${JSON.stringify(customerId)} does not have enough of item ${JSON.stringify(itemId)} for a change of ${quantity}.`,
    details: { item_id: itemId, customer_id: customerId, quantity },
  }),
);

export const StripeAccountInfoNotFound = defineKnownError("STRIPE_ACCOUNT_INFO_NOT_FOUND", 404, () => ({
  message: "No payment provider account is set up for this project. Set up payments first.",
}));
