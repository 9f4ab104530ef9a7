/**
 * Turning failures into responses: coded errors as indented JSON
 * with x-stack-known-error; plain-text errors for the few places the wire
 * contract answers in text; anything unexpected as a bare 500 that leaks
 * nothing (the details go to the log).
 */
import { KnownError } from "@latchkey/shared";
import { responseHeaders } from "./response.ts";

export function knownErrorResponse(error: KnownError): Response {
  return new Response(JSON.stringify(error.toJSON(), null, 2), {
    status: error.statusCode,
    headers: responseHeaders("application/json; charset=utf-8", { "x-stack-known-error": error.code }),
  });
}
