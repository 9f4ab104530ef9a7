/**
 * What every request leaves behind: one access-log line (method, route
 * pattern, status, duration, request id), and its count and latency in the
 * metrics. The log's request id is the response's own `x-stack-request-id`
 * (the one id of WIRE.md's every response; no other id header is added), so
 * a caller's report leads to the line. An incoming `x-request-id` (set by a
 * proxy in front, say) that is safe to log is logged beside it as
 * `upstreamId`, tying the line to the proxy's.
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
import { answeringRequest, nextRequestId, REQUEST_ID_HEADER } from "./response.ts";

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

/** Ids a proxy may hand us: short, and safe to write into a log. */
const VALID_REQUEST_ID = /^[\w.:@+/=-]{1,128}$/;

type Fetch = (request: Request, env?: ObservedEnv, ...rest: never[]) => Response | Promise<Response>;

export function observeRequests<F extends Fetch>(fetch: F, logger: Logger, metrics: Metrics, accessLog: boolean): F {
  const observed = (request: Request, env?: ObservedEnv): Response | Promise<Response> => {
    const start = performance.now();
    const note: ObservedEnv = env ?? {};
    const id = nextRequestId();
    const response = answeringRequest(id, () => fetch(request, note));
    if (!isPromise(response)) {
      record(request, note, response.status, start, id);
      return response;
    }
    return response.then(
      (answer) => {
        // Built after the handler waited: it drew its own id (http/response.ts), read only when it is logged.
        record(request, note, answer.status, start, accessLog ? (answer.headers.get(REQUEST_ID_HEADER) ?? id) : id);
        return answer;
      },
      (error: unknown) => {
        record(request, note, 500, start, id);
        throw error;
      },
    );
  };

  function record(request: Request, note: ObservedEnv, status: number, start: number, id: string): void {
    const millis = performance.now() - start;
    const pattern = note.route ?? UNMATCHED_ROUTE;
    metrics.request(request.method, pattern, status, millis / 1000);
    if (!accessLog) return;
    const given = note.incoming ? note.incoming.headers["x-request-id"] : request.headers.get("x-request-id");
    const upstream = typeof given === "string" ? given : null;
    const line = { reqId: id, method: request.method, route: pattern, status, ms: Math.round(millis * 100) / 100 };
    logger.info(upstream !== null && VALID_REQUEST_ID.test(upstream) ? { ...line, upstreamId: upstream } : line, "request");
  }

  return observed as F;
}
