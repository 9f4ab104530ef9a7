/** snake_case ⇄ camelCase for config objects, whose keys are all known words (no free-form metadata inside). */
import type { CamelCaseKeys, SnakeCaseKeys } from "@latchkey/shared/case";
const toCamel = (key: string) => key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
const toSnake = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

function convert(value: unknown, rename: (key: string) => string): unknown {
  if (Array.isArray(value)) return value.map((item) => convert(item, rename));
  if (value === null || typeof value !== "object" || value instanceof Date) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => [rename(k), convert(v, rename)]),
  );
}

export const camelKeys = <T>(value: unknown) => convert(value, toCamel) as T;
export const snakeKeys = <T>(value: T) => convert(value, toSnake) as DeepSnakeCaseKeys<T>;

/** The fields that are set, names as given (for bodies with free-form values, which snakeKeys would rename). */
export function withoutUndefined(fields: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}

/**
 * The type `camelKeys` gives a wire object: every key camelCase, at every
 * depth (for config objects only, whose nested keys are all known words).
 */
export type DeepCamelCaseKeys<T> = T extends readonly (infer Item)[]
  ? DeepCamelCaseKeys<Item>[]
  : T extends object
    ? { [K in keyof CamelCaseKeys<T>]: DeepCamelCaseKeys<CamelCaseKeys<T>[K]> }
    : T;

/** The type `snakeKeys` gives: every key snake_case, at every depth. */
export type DeepSnakeCaseKeys<T> = T extends readonly (infer Item)[]
  ? DeepSnakeCaseKeys<Item>[]
  : T extends object
    ? { [K in keyof SnakeCaseKeys<T>]: DeepSnakeCaseKeys<SnakeCaseKeys<T>[K]> }
    : T;
