/**
 * Items: what a customer has a quantity of (credits, seats, API calls),
 * defined in the project's config (`payments.items.<id>`). A customer's
 * quantity is the sum of a ledger (the server's capabilities/payments/
 * domain/ledger.ts): grants that may expire, removals that eat the grants
 * expiring soonest, and debt when a removal is allowed below zero.
 *
 * A customer is a user, a team, or a "custom" one (any id the app chooses,
 * never checked). Clients read their own user's items and, with
 * `team_admin`, their teams'; changing a quantity needs server access.
 */
import { z } from "zod";
import { CUSTOMER_TYPES } from "../constants.ts";
import { KnownErrors } from "../known-errors/index.ts";
import { defineEndpoint } from "./endpoint.ts";

/** `/…/{customer_type}/{customer_id}`: the id is any string here; a user or team that does not exist is a coded error. */
export const customerParams = z.strictObject({ customer_type: z.enum(CUSTOMER_TYPES), customer_id: z.string() });
export type CustomerParams = z.infer<typeof customerParams>;

export const itemParams = customerParams.extend({ item_id: z.string() });

export const itemJson = z.strictObject({
  id: z.string(),
  /** The config's `displayName`, or the id when it has none. */
  display_name: z.string(),
  /** May be negative: debt from removals allowed below zero. */
  quantity: z.number().int(),
});
export type ItemJson = z.infer<typeof itemJson>;

/** The longest idempotency key accepted (a UUID, or a caller's own batch key). */
export const ITEM_IDEMPOTENCY_KEY_MAX_LENGTH = 256;

export const updateItemQuantityBody = z.strictObject({
  /** Positive grants, negative removes. */
  delta: z.number().int(),
  /** When a grant's remainder stops counting (ISO 8601). A grant already expired counts for nothing. */
  expires_at: z.iso.datetime({ offset: true }).optional(),
  description: z.string().optional(),
  /**
   * A retried request with the same key (and the same change) is applied
   * once; the same key with a different change is refused with 409.
   */
  idempotency_key: z.string().min(1).max(ITEM_IDEMPOTENCY_KEY_MAX_LENGTH).optional(),
});
export type UpdateItemQuantityBody = z.infer<typeof updateItemQuantityBody>;

export const updateItemQuantityQuery = z.strictObject({
  /** Required: `false` refuses a change that would take the quantity below zero. */
  allow_negative: z.enum(["true", "false"]),
});

const ITEM_ERRORS = [
  KnownErrors.ItemNotFound,
  KnownErrors.ItemCustomerTypeDoesNotMatch,
  KnownErrors.UserNotFound,
  KnownErrors.TeamNotFound,
] as const;

export const paymentsItemsEndpoints = {
  getItem: defineEndpoint({
    method: "GET",
    path: "/payments/items/:customer_type/:customer_id/:item_id",
    summary: "A customer's quantity of an item",
    tags: ["Payments"],
    access: ["client", "server", "admin"],
    params: itemParams,
    response: itemJson,
    errors: [...ITEM_ERRORS, KnownErrors.TeamMembershipNotFound, KnownErrors.TeamPermissionRequired],
  }),
  updateItemQuantity: defineEndpoint({
    method: "POST",
    path: "/payments/items/:customer_type/:customer_id/:item_id/update-quantity",
    summary: "Grant (positive delta) or remove (negative) some of an item for a customer",
    tags: ["Payments"],
    access: ["server", "admin"],
    params: itemParams,
    query: updateItemQuantityQuery,
    body: updateItemQuantityBody,
    response: z.strictObject({}),
    errors: [...ITEM_ERRORS, KnownErrors.ItemQuantityInsufficientAmount],
  }),
};
