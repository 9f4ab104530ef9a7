/**
 * Formats validation failures in the words the API sends
 * (`body.email must be a valid email`, `query contains unknown properties: x`).
 */
import { KnownErrors } from "@latchkey/shared";
import type { z } from "zod";

export type Part = "body" | "query" | "params" | "auth" | "response";

export function pathText(part: Part, path: readonly PropertyKey[]): string {
  let out: string = part;
  for (const key of path) out += typeof key === "number" ? `[${key}]` : `.${String(key)}`;
  return out;
}

function show(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

export function issueMessage(part: Part, issue: z.core.$ZodIssue): string {
  const p = pathText(part, issue.path);
  switch (issue.code) {
    case "invalid_type": {
      const input = (issue as { input?: unknown }).input;
      if (input === undefined) return `${p} must be defined`;
      if (input === null) return `${p} cannot be null`;
      if (issue.expected === "int") return `${p} must be an integer`;
      return `${p} must be a \`${issue.expected}\` type, but the final value was: \`${show(input)}\`.`;
    }
    case "too_small":
      if (issue.origin === "string" && issue.exact) return `${p} must be exactly ${issue.minimum} characters`;
      if (issue.origin === "string") {
        return Number(issue.minimum) <= 1 ? `${p} must not be empty` : `${p} must be at least ${issue.minimum} characters`;
      }
      if (issue.origin === "array") return `${p} must have at least ${issue.minimum} items`;
      return `${p} must be greater than or equal to ${issue.minimum}`;
    case "too_big":
      if (issue.origin === "string" && issue.exact) return `${p} must be exactly ${issue.maximum} characters`;
      if (issue.origin === "string") return `${p} must be at most ${issue.maximum} characters`;
      if (issue.origin === "array") return `${p} must have at most ${issue.maximum} items`;
      return `${p} must be less than or equal to ${issue.maximum}`;
    case "invalid_format":
      if (issue.format === "email") return `${p} must be a valid email`;
      if (issue.format === "uuid" || issue.format === "guid") return `${p} must be a valid UUID`;
      if (issue.format === "url") return `${p} is not a valid URL`;
      return `${p} does not match the required format`;
    case "invalid_value":
      return `${p} must be one of the following values: ${issue.values.map(String).join(", ")}`;
    case "unrecognized_keys":
      return `${p} contains unknown properties: ${issue.keys.join(", ")}`;
    case "invalid_union": {
      const input = (issue as { input?: unknown }).input;
      if (input === undefined) return `${p} must be defined`;
      if (input === null) return `${p} cannot be null`;
      return `${p} does not match any of the allowed shapes`;
    }
    case "not_multiple_of":
      return `${p} must be a multiple of ${issue.divisor}`;
    default:
      // A message written as a sentence of its own (`Invalid system permission`) follows the path after a colon.
      return /^[A-Z]/.test(issue.message) ? `${p}: ${issue.message}` : `${p} ${issue.message}`;
  }
}

export function schemaError(method: string, pathname: string, messages: string[]): InstanceType<typeof KnownErrors.SchemaError> {
  const text = `Request validation failed on ${method} ${pathname}:\n${messages.map((m) => `  - ${m}`).join("\n")}`;
  return new KnownErrors.SchemaError(text);
}
