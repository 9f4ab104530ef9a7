/**
 * Turning failures into responses (WIRE §1.5): coded errors as indented JSON
 * with x-stack-known-error; plain-text errors for the few places the wire
 * contract answers in text; anything unexpected as a bare 500 that leaks
 * nothing (the details go to the log).
 */
import { KnownError } from "@latchkey/shared";
import { responseHeaders } from "./response.ts";

/** A non-coded failure, answered as `text/plain` with this status (WIRE §1.5). */
export class StatusError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export function knownErrorResponse(error: KnownError): Response {
  return new Response(JSON.stringify(error.toJSON(), null, 2), {
    status: error.statusCode,
    headers: responseHeaders("application/json; charset=utf-8", { "x-stack-known-error": error.code }),
  });
}

/** 429 with Retry-After, which the SDK waits out before retrying. */
export class RateLimitedError extends StatusError {
  constructor(
    readonly retryAfterSeconds: number,
    message: string,
  ) {
    super(429, message);
  }
}
