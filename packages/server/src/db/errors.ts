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

/**
 * PostgreSQL's codes for a lost or refused connection: class 08 (connection
 * exception), 53300 (no connection slot left) and 57P01-57P03 (the server
 * shut down, crashed, or is starting).
 */
const LOST_CONNECTION_SQLSTATE = /^(08...|53300|57P0[123])$/;
/** postgres.js's own codes for a connection it lost or could not open. */
const DRIVER_LOST_CONNECTION_CODES = new Set(["CONNECTION_CLOSED", "CONNECTION_DESTROYED", "CONNECTION_ENDED", "CONNECT_TIMEOUT"]);
/** The socket's, which postgres.js passes on as they are. */
const SOCKET_LOST_CONNECTION_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
]);

/**
 * Whether the database could not be reached or dropped the connection a
 * query ran on: the statement did not complete, and the same statement on
 * a fresh connection may well succeed. (PGlite runs in this process and
 * never loses its connection.) A socket's error counts only as a query's:
 * the same codes come from any other service that cannot be reached.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  return (
    fromCauses(error, (e) => {
      const code = e.code;
      if (typeof code !== "string") return undefined;
      if (DRIVER_LOST_CONNECTION_CODES.has(code)) return true;
      // postgres.js names the query on every error it rejects one with; PostgreSQL's own errors have a severity.
      if (SOCKET_LOST_CONNECTION_CODES.has(code) && "query" in e) return true;
      if (LOST_CONNECTION_SQLSTATE.test(code) && "severity" in e) return true;
      return undefined;
    }) === true
  );
}
