/** Recognising database errors across both drivers (and Drizzle's wrapper, which keeps the driver's error as `cause`). */

/** The first value `read` finds on the error or its causes. */
function fromCauses<T>(error: unknown, read: (e: Record<string, unknown>) => T | undefined): T | undefined {
  for (let e: unknown = error, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const found = read(e as Record<string, unknown>);
    if (found !== undefined) return found;
  }
  return undefined;
}

export function pgErrorCode(error: unknown): string | undefined {
  return fromCauses(error, (e) => (typeof e.code === "string" && /^[0-9A-Z]{5}$/.test(e.code) ? e.code : undefined));
}

export function isUniqueViolation(error: unknown): boolean {
  return pgErrorCode(error) === "23505";
}

/** The constraint (index) a violation names: postgres.js says constraint_name, PGlite constraint. */
export function violatedConstraint(error: unknown): string | undefined {
  return fromCauses(error, (e) =>
    typeof e.constraint_name === "string" ? e.constraint_name : typeof e.constraint === "string" ? e.constraint : undefined,
  );
}
