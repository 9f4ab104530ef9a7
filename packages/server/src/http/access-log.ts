/**
 * What every request leaves behind: one access-log line (method, route
 * pattern, status, duration, request id), its count and latency in the
 * metrics, and an `x-request-id` response header that ties the caller's
 * report to the log line. A valid incoming `x-request-id` (set by a proxy in
 * front, say) is kept, so one id follows the request through every hop.
 *
 * It wraps the app's fetch rather than being Hono middleware: middleware would
 * make every answer a promise and take the Node adapter off its synchronous
 * fast path (lib/maybe-async.ts). A synchronous answer is observed at once.
 * Nothing from the URL, headers or body is logged beyond the route pattern:
 * paths and query strings may carry codes and tokens.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Logger } from "pino";
import type { Metrics } from "../lib/metrics.ts";
import { isPromise } from "../lib/maybe-async.ts";
import { nextRequestId } from "./response.ts";

/**
 * The per-request environment the Node adapter passes to fetch (`incoming`, `outgoing`), plus the
 * route pattern the handler that answered sets (`route`), for the log and the metrics.
 */
export interface ObservedEnv {
  incoming?: IncomingMessage;
  outgoing?: ServerResponse;
  route?: string;
}

/** Answers without a handler of their own: no route matched (the 404 and 405 answers). */
export const UNMATCHED_ROUTE = "(unmatched)";

/** Ids a proxy or client may hand us: short, and safe to write into a header and a log. */
const VALID_REQUEST_ID = /^[\w.:@+/=-]{1,128}$/;

type Fetch = (request: Request, env?: ObservedEnv, ...rest: never[]) => Response | Promise<Response>;

export function observeRequests<F extends Fetch>(fetch: F, logger: Logger, metrics: Metrics, accessLog: boolean): F {
  const observed = (request: Request, env?: ObservedEnv): Response | Promise<Response> => {
    const start = performance.now();
    const note: ObservedEnv = env ?? {};
    const incoming = note.incoming;
    const given = incoming ? incoming.headers["x-request-id"] : request.headers.get("x-request-id");
    const id = typeof given === "string" && VALID_REQUEST_ID.test(given) ? given : nextRequestId();
    // Set before the adapter writes the head, which merges it in.
    note.outgoing?.setHeader("x-request-id", id);
    const response = fetch(request, note);
    if (!isPromise(response)) {
      record(request.method, note.route, response.status, start, id);
      return response;
    }
    return response.then(
      (answer) => {
        record(request.method, note.route, answer.status, start, id);
        return answer;
      },
      (error: unknown) => {
        record(request.method, note.route, 500, start, id);
        throw error;
      },
    );
  };

  function record(method: string, route: string | undefined, status: number, start: number, id: string): void {
    const millis = performance.now() - start;
    const pattern = route ?? UNMATCHED_ROUTE;
    metrics.request(method, pattern, status, millis / 1000);
    if (accessLog) logger.info({ reqId: id, method, route: pattern, status, ms: Math.round(millis * 100) / 100 }, "request");
  }

  return observed as F;
}
