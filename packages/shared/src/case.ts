/**
 * snake_case (the wire) ⇄ camelCase (TypeScript objects) for the keys of
 * one object. Shallow on purpose: values such as metadata are the caller's
 * own JSON and keep their keys. With these, an object's wire schema is its
 * only definition: the SDK's option types and the server's domain patches are
 * derived from it (`CamelCaseKeys<…>`) and mapped by rule, not by a list.
 */

type Camel<S extends string> = S extends `${infer Head}_${infer Tail}` ? `${Head}${Capitalize<Camel<Tail>>}` : S;
type Snake<S extends string> = S extends `${infer Head}${infer Tail}`
  ? `${Head extends Lowercase<Head> ? Head : `_${Lowercase<Head>}`}${Snake<Tail>}`
  : S;

/** `{ display_name?: string }` → `{ displayName?: string }` (optional and readonly modifiers kept). */
export type CamelCaseKeys<T> = { [K in keyof T as K extends string ? Camel<K> : K]: T[K] };
/** `{ displayName?: string }` → `{ display_name?: string }`. */
export type SnakeCaseKeys<T> = { [K in keyof T as K extends string ? Snake<K> : K]: T[K] };

const toCamel = (key: string) => key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
const toSnake = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** The keys renamed to camelCase; keys whose value is undefined are left out. */
export function camelCaseKeys<T extends object>(value: T): CamelCaseKeys<T> {
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) if (field !== undefined) out[toCamel(key)] = field;
  return out as CamelCaseKeys<T>;
}

/** The keys renamed to snake_case; keys whose value is undefined are left out. */
export function snakeCaseKeys<T extends object>(value: T): SnakeCaseKeys<T> {
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) if (field !== undefined) out[toSnake(key)] = field;
  return out as SnakeCaseKeys<T>;
}
