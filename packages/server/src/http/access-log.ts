/**
 * What every request leaves behind: one access-log line (method, route
 * pattern, status, duration, request id), and its count and latency in the
 * metrics. The log's request id is the response's own `x-stack-request-id`
 * (the one id every response carries; no other id header is added), so
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
import { answerWithId, nextRequestId, REQUEST_ID_HEADER } from "./response.ts";

/** The per-request environment the Node adapter passes to fetch (`incoming`, `outgoing`). */
export interface ObservedEnv {
  incoming?: IncomingMessage;
  outgoing?: ServerResponse;
}

/** Answers without a handler of their own: no route matched (the 404 and 405 answers). */
export const UNMATCHED_ROUTE = "(unmatched)";

/** Ids a proxy may hand us: short, and safe to write into a log. */
const VALID_REQUEST_ID = /^[\w.:@+/=-]{1,128}$/;

type Fetch = (request: Request, env?: ObservedEnv, ...rest: never[]) => Response | Promise<Response>;

/** The route pattern named by the handler whose synchronous part is running (see nameRoute). */
let namedRoute: string | undefined;

/**
 * Names the route answering the current request, for the log and the metrics: a pattern
 * (/api/v1/users/:user_id) or a label, never the path itself. Called in the synchronous part of a
 * handler (before it first waits), which runs inside observeRequests' call of fetch, so no other
 * request's handler can run in between. Kept here rather than written onto the adapter's
 * per-request env object, which would grow that object on every request.
 */
export function nameRoute(pattern: string): void {
  namedRoute = pattern;
}

export function observeRequests<F extends Fetch>(fetch: F, logger: Logger, metrics: Metrics, accessLog: boolean): F {
  // Closures are made only on the asynchronous path; an answer given at once allocates none of its own here.
  const observed = (request: Request, env?: ObservedEnv): Response | Promise<Response> => {
    const start = performance.now();
    const id = nextRequestId();
    const outer = namedRoute;
    namedRoute = undefined;
    let response: Response | Promise<Response>;
    let route: string;
    try {
      response = answerWithId(id, fetch, request, env);
    } finally {
      route = namedRoute ?? UNMATCHED_ROUTE;
      namedRoute = outer;
    }
    if (!isPromise(response)) {
      record(request, env, route, response.status, start, id);
      return response;
    }
    return response.then(
      (answer) => {
        // Built after the handler waited: it drew its own id (http/response.ts), read only when it is logged.
        record(request, env, route, answer.status, start, logging() ? (answer.headers.get(REQUEST_ID_HEADER) ?? id) : id);
        return answer;
      },
      (error: unknown) => {
        record(request, env, route, 500, start, id);
        throw error;
      },
    );
  };

  /** Whether a line would be written: with the access log on and the logger's level at info or below. */
  function logging(): boolean {
    return accessLog && logger.isLevelEnabled("info");
  }

  function record(request: Request, env: ObservedEnv | undefined, route: string, status: number, start: number, id: string): void {
    const millis = performance.now() - start;
    metrics.request(request.method, route, status, millis / 1000);
    // Nothing more is read or built for a line the logger would drop.
    if (!logging()) return;
    const given = env?.incoming ? env.incoming.headers["x-request-id"] : request.headers.get("x-request-id");
    const upstream = typeof given === "string" ? given : null;
    const line = { reqId: id, method: request.method, route, status, ms: Math.round(millis * 100) / 100 };
    logger.info(upstream !== null && VALID_REQUEST_ID.test(upstream) ? { ...line, upstreamId: upstream } : line, "request");
  }

  return observed as F;
}
