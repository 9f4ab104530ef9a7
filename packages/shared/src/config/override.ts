/**
 * Config overrides: JSON objects whose top-level keys may be
 * dotted paths (`"auth.allowSignUp": false`). Writing key K drops every stored
 * key equal to K or under it (`K.…`) and then sets K, so setting `a.b`
 * replaces all of `a.b` from earlier writes and lower levels. A level's
 * overrides are stored as written; the rendered document is made from them.
 */
import { DEFAULT_EMAIL_TEMPLATE_IDS } from "../constants.ts";
import { StatusError } from "../known-errors/status-errors.ts";
import { renderedConfigSchema, type RenderedConfig } from "./schema.ts";
import { childSchema, containerOption, isPlainObject, unwrap } from "./walk.ts";
import { z } from "zod";

export type ConfigOverride = Record<string, unknown>;

/** An override refused: answered as 400 with the message as plain text. */
export function configOverrideError(message: string): StatusError {
  return new StatusError(400, message);
}

export function parseConfigOverrideString(text: string): ConfigOverride {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw configOverrideError("Invalid config JSON");
  }
  if (!isPlainObject(parsed)) throw configOverrideError("Invalid config JSON");
  return parsed;
}

/** `stored` with `patch` written over it, key by key (see the file comment). */
export function applyConfigOverride(stored: ConfigOverride, patch: ConfigOverride): ConfigOverride {
  const next: ConfigOverride = { ...stored };
  for (const [key, value] of Object.entries(patch)) {
    for (const existing of Object.keys(next)) if (existing === key || existing.startsWith(`${key}.`)) delete next[existing];
    next[key] = value;
  }
  return next;
}

/** The levels, lowest first, merged as if each were written over the one before. */
export function mergeConfigOverrides(levels: readonly ConfigOverride[]): ConfigOverride {
  return levels.reduce<ConfigOverride>((merged, level) => applyConfigOverride(merged, level), {});
}

/** `stored` without each key's value: stored keys equal to or under it, and the part of a stored object that holds it. */
export function resetConfigOverrideKeys(stored: ConfigOverride, keys: readonly string[]): ConfigOverride {
  let next: ConfigOverride = { ...stored };
  for (const reset of keys) {
    const out: ConfigOverride = {};
    for (const [key, value] of Object.entries(next)) {
      if (key === reset || key.startsWith(`${reset}.`)) continue;
      out[key] = reset.startsWith(`${key}.`) ? without(value, reset.slice(key.length + 1).split(".")) : value;
    }
    next = out;
  }
  return next;
}

function without(value: unknown, path: readonly string[]): unknown {
  if (!isPlainObject(value)) return value;
  const [head, ...rest] = path as [string, ...string[]];
  if (!(head in value)) return value;
  const copy = { ...value };
  if (rest.length === 0) delete copy[head];
  else copy[head] = without(copy[head], rest);
  return copy;
}

/**
 * The rendered config: the merged override expanded onto the defaults. A
 * dotted key is applied only where its parent exists as an object (a fixed
 * object or record always does; a record's entry only once written), else it
 * is dropped.
 * `null` means the default for a fixed field and no entry for a record's.
 * Record entries that lack a required field (a provider without `type`) are
 * left out, and so is any value the schema does not accept.
 */
export function renderConfig(merged: ConfigOverride): RenderedConfig {
  const doc: Record<string, unknown> = {};
  // A key's parent is written before it (writing the parent drops it), so shallower keys go first.
  const entries = Object.entries(merged).sort(([a], [b]) => a.split(".").length - b.split(".").length);
  for (const [key, value] of entries) {
    const path = key.split(".");
    let cursor = doc;
    let schema: z.ZodType | undefined = renderedConfigSchema;
    let placed = true;
    for (const segment of path.slice(0, -1)) {
      const fixedField = schema !== undefined && unwrap(schema).inner instanceof z.ZodObject;
      schema = schema && childSchema(schema, segment);
      const next = cursor[segment];
      if (isPlainObject(next)) cursor = next;
      else if ((next === undefined || next === null) && fixedField && schema && isContainer(schema)) {
        cursor = cursor[segment] = {};
      } else {
        placed = false;
        break;
      }
    }
    if (placed) cursor[path.at(-1)!] = structuredClone(value);
  }
  const filled = fill(renderedConfigSchema, doc);
  return sanitize((filled === INVALID || filled === OMIT ? fill(renderedConfigSchema, {}) : filled) as RenderedConfig);
}

const BUILT_IN_TEMPLATE_IDS: ReadonlySet<string> = new Set(Object.values(DEFAULT_EMAIL_TEMPLATE_IDS));

/**
 * What a valid document cannot say on its own: mail through the shared server is sent with the built-in
 * templates only (a project's own templates need its own server); a product line set without a customer type
 * takes its products' type; an item or product without a display name shows its id. A selected theme is kept as written: themes also live in the project's theme store,
 * which this pure function cannot see, and sending falls back to the default theme when the selected one is gone.
 */
function sanitize(config: RenderedConfig): RenderedConfig {
  const { emails, payments } = config;
  if (emails.server.isShared) {
    emails.templates = Object.fromEntries(Object.entries(emails.templates).filter(([id]) => BUILT_IN_TEMPLATE_IDS.has(id)));
  }
  for (const [lineId, line] of Object.entries(payments.productLines)) {
    if (line.customerType !== undefined) continue;
    const member = Object.values(payments.products).find((product) => product.productLineId === lineId);
    line.customerType = member?.customerType ?? "user";
  }
  // An item's or product's display name is its id until one is set.
  for (const [id, entry] of [...Object.entries(payments.items), ...Object.entries(payments.products)]) entry.displayName ??= id;
  return config;
}

/** An object or record: present (empty at least) wherever its field is. */
function isContainer(schema: z.ZodType): boolean {
  const { inner } = unwrap(schema);
  if (inner instanceof z.ZodUnion) return containerOption(inner) !== undefined;
  return inner instanceof z.ZodObject || inner instanceof z.ZodRecord;
}

const INVALID = Symbol("invalid");
const OMIT = Symbol("omit");

function fill(schema: z.ZodType, value: unknown): unknown {
  const { inner, defaultValue, optional } = unwrap(schema);
  // An object where a union allows one (a product's prices) is filled as that option: a bad entry drops only itself.
  const container = inner instanceof z.ZodUnion && isPlainObject(value) ? containerOption(inner) : undefined;
  if (container) return fill(container, value);
  if (value === undefined || value === null || (inner instanceof z.ZodObject && !isPlainObject(value))) {
    if (defaultValue !== undefined) return inner instanceof z.ZodObject ? fill(inner, defaultValue) : structuredClone(defaultValue);
    if (optional) return OMIT;
    if (!(inner instanceof z.ZodObject)) return INVALID;
    value = {};
  }
  if (inner instanceof z.ZodObject) {
    const out: Record<string, unknown> = {};
    const given = value as Record<string, unknown>;
    for (const [key, child] of Object.entries(inner.shape as Record<string, z.ZodType>)) {
      const result = fill(child, given[key]);
      if (result === INVALID) return INVALID;
      if (result !== OMIT) out[key] = result;
    }
    // Loose objects (sourceOfTruth) keep what they do not describe.
    if (inner._zod.def.catchall && !(inner._zod.def.catchall instanceof z.ZodNever)) {
      for (const [key, v] of Object.entries(given)) if (!(key in out)) out[key] = v;
    }
    return out;
  }
  if (inner instanceof z.ZodRecord) {
    const out: Record<string, unknown> = {};
    if (!isPlainObject(value)) return out;
    for (const [key, entry] of Object.entries(value)) {
      // A null entry is a removed one, also where every field of an entry has a default (a data vault store).
      if (entry === null || !(inner.keyType as z.ZodType).safeParse(key).success) continue;
      const result = fill(inner.valueType as z.ZodType, entry);
      if (result !== INVALID && result !== OMIT) out[key] = result;
    }
    return out;
  }
  const parsed = inner.safeParse(value);
  if (parsed.success) return parsed.data;
  if (defaultValue !== undefined) return structuredClone(defaultValue);
  return optional ? OMIT : INVALID;
}
