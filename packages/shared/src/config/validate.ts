/**
 * Checking an override before it is stored: only what is
 * written is checked, against what its level may set. Each refusal is a 400
 * with a plain-text message; older key names are carried to the current ones
 * first. Rules across keys (a product naming its product line) need the whole
 * rendered config: payments.ts.
 */
import { z } from "zod";
import { LEVEL_SCHEMAS, OBJECT_RULES, type ConfigLevel } from "./schema.ts";
import { configOverrideError, type ConfigOverride } from "./override.ts";
import { childSchema, containerOption, isPlainObject, unwrap } from "./walk.ts";

/** What one segment of a config key may hold (a record entry's id, say: a data vault store's). */
export const CONFIG_KEY_SEGMENT_PATTERN = /^[A-Za-z0-9_$:-]+$/;
const SEGMENT = CONFIG_KEY_SEGMENT_PATTERN.source.slice(1, -1);
const KEY_PATTERN = new RegExp(`^${SEGMENT}(\\.${SEGMENT})*$`);

/** The current name of `segment` under `parent` (already renamed), or null when the key is no longer kept. */
function renamedSegment(level: ConfigLevel, parent: readonly string[], segment: string): string | null {
  const at = parent.join(".");
  if (at === "" && segment === "workflows") return null;
  if (at === "" && segment === "sourceOfTruth" && level !== "project") return null;
  if (at === "apps.installed" && segment === "workflows") return null;
  if (at === "emails" && segment === "theme") return "selectedThemeId";
  if (at === "payments" && segment === "offers") return "products";
  if (at === "payments" && (segment === "groups" || segment === "catalogs")) return "productLines";
  if (parent.length === 3 && parent[0] === "payments" && parent[1] === "products" && (segment === "groupId" || segment === "catalogId"))
    return "productLineId";
  return segment;
}

function renamedValue(level: ConfigLevel, path: readonly string[], value: unknown): unknown {
  if (path.join(".") === "domains.trustedDomains" && Array.isArray(value)) {
    return Object.fromEntries(value.map((entry, index) => [String(index), entry]));
  }
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    const renamed = renamedSegment(level, path, key);
    if (renamed !== null) out[renamed] = renamedValue(level, [...path, renamed], child);
  }
  return out;
}

/** The override with older key names replaced by the current ones, and keys no longer kept dropped. */
export function migrateConfigOverride(level: ConfigLevel, override: ConfigOverride): ConfigOverride {
  const out: ConfigOverride = {};
  for (const [key, value] of Object.entries(override)) {
    const path: string[] = [];
    let dropped = false;
    for (const segment of key.split(".")) {
      const renamed = renamedSegment(level, path, segment);
      if (renamed === null) {
        dropped = true;
        break;
      }
      path.push(renamed);
    }
    if (!dropped) out[path.join(".")] = renamedValue(level, path, value);
  }
  return out;
}

/** Throws the 400 the first problem of the override answers with. */
export function validateConfigOverride(level: ConfigLevel, override: ConfigOverride): void {
  for (const [key, value] of Object.entries(override)) {
    if (!KEY_PATTERN.test(key)) {
      throw configOverrideError(`Invalid config format: the key "${key}" may only hold letters, digits and _ $ : -, separated by dots.`);
    }
    const dotted = dottedKeyIn(value);
    if (dotted !== undefined) throw configOverrideError(`Key ${dotted} contains a dot, which is not allowed in config override.`);
  }
  const root = LEVEL_SCHEMAS[level];
  for (const [key, value] of Object.entries(override)) {
    const path = key.split(".");
    let schema: z.ZodType | undefined = root;
    for (const [index, segment] of path.entries()) {
      const parent: z.ZodType = schema!;
      schema = childSchema(parent, segment);
      if (!schema) {
        throw configOverrideError(
          `The key "${key}" is not valid (nested object not found in schema: "${path.slice(0, index + 1).join(".")}").`,
        );
      }
      // A record entry named in the key itself (`payments.products.<id>`) must be a valid id, as inside a value.
      const record = recordOf(parent);
      if (record && !(record.keyType as z.ZodType).safeParse(segment).success) {
        throw configOverrideError(`${path.slice(0, index).join(".")} has an invalid key: "${segment}"`);
      }
    }
    const problem = valueProblem(schema!, value, key);
    if (problem) throw configOverrideError(problem);
  }
}

function dottedKeyIn(value: unknown): string | undefined {
  if (Array.isArray(value)) {
    for (const item of value) {
      const found = dottedKeyIn(item);
      if (found !== undefined) return found;
    }
  } else if (isPlainObject(value)) {
    for (const [key, child] of Object.entries(value)) {
      if (key.includes(".")) return key;
      const found = dottedKeyIn(child);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/** What is wrong with `value` at `path` (messages in the form clients of the config API know), or null. `null` always passes: it means the default. */
function valueProblem(schema: z.ZodType, value: unknown, path: string): string | null {
  if (value === null) return null;
  const { inner } = unwrap(schema);
  if (inner instanceof z.ZodUnion) return unionProblem(inner, value, path);
  if (inner instanceof z.ZodTuple) return tupleProblem(inner, value, path);
  if (inner instanceof z.ZodObject || inner instanceof z.ZodRecord) {
    if (!isPlainObject(value)) return typeMessage(path, "object", value);
    for (const [key, child] of Object.entries(value)) {
      const childPath = `${path}.${key}`;
      if (inner instanceof z.ZodRecord && !(inner.keyType as z.ZodType).safeParse(key).success)
        return `${path} has an invalid key: "${key}"`;
      const next = childSchema(inner, key);
      if (!next) return `The key "${childPath}" is not valid (nested object not found in schema: "${childPath}").`;
      const problem = valueProblem(next, child, childPath);
      if (problem) return problem;
    }
    return OBJECT_RULES.get(inner)?.(value) ?? null;
  }
  const result = inner.safeParse(value);
  if (result.success) return null;
  return leafMessage(inner, value, path, result.error);
}

/** A union is checked as the option the value's shape picks: an object as the object or record option, else as a whole. */
function unionProblem(union: z.ZodUnion, value: unknown, path: string): string | null {
  const options = union.options as z.ZodType[];
  const container = containerOption(union);
  if (container && isPlainObject(value)) return valueProblem(container, value, path);
  if (options.some((option) => option.safeParse(value).success)) return null;
  const tuple = options.find((option) => unwrap(option).inner instanceof z.ZodTuple);
  if (tuple && Array.isArray(value)) return valueProblem(tuple, value, path);
  return `${path} is invalid`;
}

/** An interval and the like: each element at `path[i]`. */
function tupleProblem(tuple: z.ZodTuple, value: unknown, path: string): string | null {
  const items = tuple._zod.def.items as z.ZodType[];
  if (!Array.isArray(value)) return typeMessage(path, "tuple", value);
  if (value.length !== items.length) return `${path} must have exactly ${String(items.length)} elements`;
  for (const [index, item] of items.entries()) {
    const itemPath = `${path}[${String(index)}]`;
    if (value[index] === null) return `${itemPath} is a required field`;
    const problem = valueProblem(item, value[index], itemPath);
    if (problem) return problem;
  }
  return null;
}

/** Of a record (under its wrappers, or a union's record option), else undefined. */
function recordOf(schema: z.ZodType): z.ZodRecord | undefined {
  const { inner } = unwrap(schema);
  const container = inner instanceof z.ZodUnion ? containerOption(inner) : inner;
  const unwrapped = container && unwrap(container).inner;
  return unwrapped instanceof z.ZodRecord ? unwrapped : undefined;
}

function leafMessage(schema: z.ZodType, value: unknown, path: string, error: z.ZodError): string {
  // A rule with a message of its own (a money amount's) is answered with that message alone.
  const custom = error.issues.find((issue) => issue.code === "custom");
  if (custom) return custom.message;
  if (schema instanceof z.ZodEnum) return `${path} must be one of the following values: ${schema.options.join(", ")}`;
  if (schema instanceof z.ZodBoolean) return typeMessage(path, "boolean", value);
  if (schema instanceof z.ZodString || schema instanceof z.ZodStringFormat) {
    if (typeof value !== "string") return typeMessage(path, "string", value);
    if (schema instanceof z.ZodUUID) return `${path} must be a valid UUID`;
    return `${path} must match the following: "${String(error.issues[0]?.message)}"`;
  }
  if (schema instanceof z.ZodNumber) {
    if (typeof value !== "number") return typeMessage(path, "number", value);
    const issue = error.issues[0];
    if (issue?.code === "too_small") return `${path} must be greater than or equal to ${String(issue.minimum)}`;
    if (issue?.code === "too_big") return `${path} must be less than or equal to ${String(issue.maximum)}`;
    return `${path} must be an integer`;
  }
  return `${path} is invalid`;
}

function typeMessage(path: string, type: string, value: unknown): string {
  return `${path} must be a \`${type}\` type, but the final value was: \`${printValue(value)}\`.`;
}

function printValue(value: unknown): string {
  return typeof value === "string"
    ? JSON.stringify(value)
    : Array.isArray(value)
      ? `[${value.map(printValue).join(", ")}]`
      : String(JSON.stringify(value));
}
