/**
 * Turning failures into responses: coded errors as indented JSON
 * with x-stack-known-error; plain-text errors for the few places the wire
 * contract answers in text; a dependency that is down as 503 with
 * Retry-After; anything unexpected as a bare 500 that leaks nothing (the
 * details go to the log).
 */
import { KnownError } from "@latchkey/shared";
import { responseHeaders } from "./response.ts";

export function knownErrorResponse(error: KnownError): Response {
  return new Response(JSON.stringify(error.toJSON(), null, 2), {
    status: error.statusCode,
    headers: responseHeaders("application/json; charset=utf-8", { "x-stack-known-error": error.code, ...retryAfter(error.statusCode) }),
  });
}

/** Seconds a caller is asked to wait after a 503 from a dependency of ours (an OAuth provider, Stripe). */
const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;
/** A database that dropped its connections is usually back within a second or two (a restart, a failover). */
export const DATABASE_RETRY_AFTER_SECONDS = 1;
export const DATABASE_UNAVAILABLE_MESSAGE = "The database is temporarily unavailable. Please try again in a moment.";

/** Every 503 says when to try again. */
export function retryAfter(status: number): Record<string, string> | undefined {
  return status === 503 ? { "retry-after": String(UNAVAILABLE_RETRY_AFTER_SECONDS) } : undefined;
}
