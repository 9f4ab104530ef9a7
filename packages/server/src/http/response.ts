/**
 * Every response is built here with all of its headers at once: the request
 * id, `cache-control`, CORS and the security headers. Adding headers
 * afterwards (in middleware) would force the Node adapter off its fast path
 * and cost more than the whole route.
 */
import { randomUUID } from "node:crypto";
import { isPromise } from "../lib/maybe-async.ts";

const EXPOSED = "x-stack-known-error, x-stack-request-id, retry-after";

/** The request id every response carries. */
export const REQUEST_ID_HEADER = "x-stack-request-id";

// A request id tells requests apart in logs and bug reports; it is no
// secret. A random prefix per process and a counter keep the UUID's shape
// and are unique across restarts and replicas, at a tenth of randomUUID's
// cost per request. Known and accepted: a client comparing two of its ids
// learns how many requests that process answered in between.
const REQUEST_ID_PREFIX = randomUUID().slice(0, 24);
let requestCount = 0;

/** The id of the request whose synchronous part is running (set by answerWithId), else null. */
let answering: string | null = null;

export function nextRequestId(): string {
  return answering ?? REQUEST_ID_PREFIX + (requestCount++).toString(16).padStart(12, "0");
}

/**
 * Calls `fetch(request, env)` with the request's id known in advance: a
 * response built in its synchronous part (a cached read's, which never waits)
 * takes `id` as its `x-stack-request-id`, so the access log can name the id
 * without reading the response's headers (http/access-log.ts). What is built
 * after the handler first waits draws its own id, as before; JavaScript runs
 * one request's synchronous part at a time, so no other request's response
 * can take this id. The call and its arguments are passed rather than a
 * closure: this runs on every request.
 */
export function answerWithId<A, E, R>(id: string, fetch: (request: A, env: E) => R, request: A, env: E): R {
  const outer = answering;
  answering = id;
  try {
    return fetch(request, env);
  } finally {
    answering = outer;
  }
}

/**
 * The security headers of every answer (written out in responseHeaders' literals too). `nosniff`: a browser
 * keeps to the declared type, so a JSON error echoing a value, or a stored image, is never run as a script or
 * page. `no-referrer`: the API's addresses carry codes, states and tokens in their queries, and its redirects
 * lead to OAuth providers and apps; no answer of the API needs to tell anyone where it was reached from.
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
};

export const STRICT_TRANSPORT_SECURITY_HEADER = "strict-transport-security";
/** Two years, this host and the hosts under it; never preloaded, which an operator must choose for the domain. */
const STRICT_TRANSPORT_SECURITY = "max-age=63072000; includeSubDomains";

/**
 * The Strict-Transport-Security value of a server reached at `apiUrl` (ServerConfig.apiUrl), or null: only an
 * https public address asks browsers to keep to https (a development server on http://localhost must not).
 */
export function strictTransportSecurity(apiUrl: string): string | null {
  return apiUrl.startsWith("https://") ? STRICT_TRANSPORT_SECURITY : null;
}

/** The Strict-Transport-Security value of the instance whose synchronous part is running (withStrictTransportSecurity), else null. */
let transportSecurity: string | null = null;

/** For headers built without responseHeaders (the dashboard's files): the answering instance's Strict-Transport-Security. */
export function currentStrictTransportSecurity(): string | null {
  return transportSecurity;
}

/**
 * `fetch`, answering with Strict-Transport-Security `value` (from strictTransportSecurity). Several
 * instances may share a process (the tests), each with its own public address, so the value belongs to the
 * instance, not the module: it is set while the instance's synchronous part runs, where responseHeaders
 * writes it into the literal it builds anyway, and an answer built after the handler first waited has it set
 * when it resolves (such an answer is no longer on the adapter's fast path). Only an https instance is
 * wrapped: the others pay nothing.
 */
export function withStrictTransportSecurity<A, E>(
  fetch: (request: A, env?: E) => Response | Promise<Response>,
  value: string,
): (request: A, env?: E) => Response | Promise<Response> {
  const secured = (answer: Response): Response => {
    if (!answer.headers.has(STRICT_TRANSPORT_SECURITY_HEADER)) answer.headers.set(STRICT_TRANSPORT_SECURITY_HEADER, value);
    return answer;
  };
  return (request, env) => {
    const outer = transportSecurity;
    transportSecurity = value;
    let response: Response | Promise<Response>;
    try {
      response = fetch(request, env);
    } finally {
      transportSecurity = outer;
    }
    return isPromise(response) ? response.then(secured) : response;
  };
}

// Plain literals, no spreads: properties after a spread are defined one
// runtime call at a time, which made this the costliest line of a request.
export function responseHeaders(contentType: string | null, extra?: Record<string, string>): Record<string, string> {
  const headers: Record<string, string> =
    contentType === null
      ? {
          "cache-control": "no-store, max-age=0",
          "x-stack-request-id": nextRequestId(),
          "access-control-allow-origin": "*",
          "access-control-expose-headers": EXPOSED,
          "x-content-type-options": "nosniff",
          "referrer-policy": "no-referrer",
        }
      : {
          "content-type": contentType,
          "cache-control": "no-store, max-age=0",
          "x-stack-request-id": nextRequestId(),
          "access-control-allow-origin": "*",
          "access-control-expose-headers": EXPOSED,
          "x-content-type-options": "nosniff",
          "referrer-policy": "no-referrer",
        };
  if (transportSecurity !== null) headers[STRICT_TRANSPORT_SECURITY_HEADER] = transportSecurity;
  return extra === undefined ? headers : Object.assign(headers, extra);
}

export function jsonResponse(status: number, body: unknown, extra?: Record<string, string>): Response {
  return jsonTextResponse(status, JSON.stringify(body), extra);
}

/** For a body that is already JSON text. */
export function jsonTextResponse(status: number, json: string, extra?: Record<string, string>): Response {
  return new Response(json, { status, headers: responseHeaders("application/json; charset=utf-8", extra) });
}

export function textResponse(status: number, text: string, extra?: Record<string, string>): Response {
  return new Response(text, { status, headers: responseHeaders("text/plain; charset=utf-8", extra) });
}

export function emptyResponse(status: number, extra?: Record<string, string>): Response {
  return new Response(null, { status, headers: responseHeaders(null, extra) });
}
