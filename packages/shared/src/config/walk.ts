/** Walking the config schema by key path: what a path names, and its default. */
import { z } from "zod";

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export interface Unwrapped {
  inner: z.ZodType;
  /** The value absence stands for, if any. */
  defaultValue: unknown;
  optional: boolean;
}

/** The schema under its default/optional wrappers. */
export function unwrap(schema: z.ZodType): Unwrapped {
  let inner = schema;
  let defaultValue: unknown;
  let optional = false;
  for (;;) {
    if (inner instanceof z.ZodDefault || inner instanceof z.ZodPrefault) {
      defaultValue ??= inner._zod.def.defaultValue;
      inner = inner.unwrap() as z.ZodType;
    } else if (inner instanceof z.ZodOptional) {
      optional = true;
      inner = inner.unwrap() as z.ZodType;
    } else return { inner, defaultValue, optional };
  }
}

/** The object or record among a union's options (a product's prices: "include-by-default" or a record of prices). */
export function containerOption(union: z.ZodUnion): z.ZodType | undefined {
  return (union.options as z.ZodType[]).find((option) => {
    const { inner } = unwrap(option);
    return inner instanceof z.ZodObject || inner instanceof z.ZodRecord;
  });
}

/** The schema of `segment` inside `schema`: an object's field or any record entry; undefined when there is none. */
export function childSchema(schema: z.ZodType, segment: string): z.ZodType | undefined {
  const { inner } = unwrap(schema);
  if (inner instanceof z.ZodUnion) {
    const option = containerOption(inner);
    return option && childSchema(option, segment);
  }
  if (inner instanceof z.ZodObject) {
    const shape = inner.shape as Record<string, z.ZodType>;
    return Object.hasOwn(shape, segment) ? shape[segment] : undefined;
  }
  if (inner instanceof z.ZodRecord) return inner.valueType as z.ZodType;
  return undefined;
}
