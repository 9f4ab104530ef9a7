/** JSON values, as metadata fields hold them. */
import { z } from "zod";

/** Any JSON value (metadata fields hold these). */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Validates a JSON value in full (objects, arrays, strings, finite numbers, booleans, null). */
export const jsonSchema: z.ZodType<Json> = (z.json() as z.ZodType<Json>).meta({ id: "Json", description: "Any JSON value" });

/** `{"success": true}`: what a delete (and a few other actions) answer. */
export const successJson = z.strictObject({ success: z.literal(true) });

/** A list that is never paginated. */
export function listJson<T extends z.ZodType>(item: T) {
  return z.strictObject({ items: z.array(item), is_paginated: z.literal(false) });
}

/** A list that is paginated: `pagination.next_cursor` reads the next page. */
export function paginatedListJson<T extends z.ZodType>(item: T) {
  return z.strictObject({
    items: z.array(item),
    is_paginated: z.literal(true),
    pagination: z.strictObject({ next_cursor: z.string().nullable() }),
  });
}

/** Query flags are sent as the strings `true` and `false`. */
export const booleanQuery = z.enum(["true", "false"]).transform((v) => v === "true");

/** The answer `successJson` describes. */
export const SUCCESS = Object.freeze({ success: true as const });

/** A list answer that `listJson` describes. */
export function listOf<T>(items: T[]): { items: T[]; is_paginated: false } {
  return { items, is_paginated: false };
}

/** A page of a list that `paginatedListJson` describes. */
export function pageOf<T>(
  items: T[],
  nextCursor: string | null,
): { items: T[]; is_paginated: true; pagination: { next_cursor: string | null } } {
  return { items, is_paginated: true, pagination: { next_cursor: nextCursor } };
}
