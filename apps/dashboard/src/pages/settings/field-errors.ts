/**
 * The server names a refused field in its validation message
 * (`body.logo_url is not a valid URL`); this finds those lines so the form
 * can show each one under its own field.
 */
import { KnownErrors } from "@latchkey/js";

/** Per body field (as the wire names it), what the server said about it; null when the error names no field. */
export function fieldErrorsOf(error: unknown): Record<string, string> | null {
  if (!(error instanceof KnownErrors.SchemaError)) return null;
  const found: Record<string, string> = {};
  for (const match of error.message.matchAll(/^\s*- body\.([a-z_]+)(?::)? (.+)$/gm)) {
    found[match[1]!] ??= match[2]!;
  }
  return Object.keys(found).length > 0 ? found : null;
}
