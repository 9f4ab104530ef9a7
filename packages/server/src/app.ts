/**
 * Builds the HTTP app from the route modules. `app.request()` serves a
 * Request with no socket (tests); `serve()` in main.ts binds a port.
 */
import { API_PREFIX, KnownError, RateLimitedError, StatusError } from "@latchkey/shared";
import { Hono, type Context } from "hono";
import { TrieRouter } from "hono/router/trie-router";
import { getPath } from "hono/utils/url";
import { STACK_REQUEST_HEADERS } from "./http/headers.ts";
import { DATABASE_RETRY_AFTER_SECONDS, DATABASE_UNAVAILABLE_MESSAGE, knownErrorResponse, retryAfter } from "./http/errors.ts";
import { isDatabaseUnavailable } from "./db/errors.ts";
import { schemaError } from "./http/schema-errors.ts";
import { InvalidInput } from "./lib/invalid-input.ts";
import { routeHandler } from "./http/pipeline.ts";
import { ResponseSchemaMismatch } from "./http/response-check.ts";
import { StaticMemoRouter } from "./http/router.ts";
import { emptyResponse, strictTransportSecurity, textResponse, withStrictTransportSecurity } from "./http/response.ts";
import type { RouteDefinition } from "./http/route.ts";
import { openApiRoutes } from "./http/openapi-route.ts";
import { SdkPackages } from "./http/sdk-packages.ts";
import { compareRoutes } from "./route-table.ts";
import { nameRoute, observeRequests } from "./http/access-log.ts";
import { HEALTH_LIVE_PATH, HEALTH_READY_PATH, liveResponse, readyResponse } from "./http/health.ts";
import { METRICS_PATH, metricsResponse } from "./http/metrics.ts";
import type { Services } from "./services.ts";
import { SVIX_BASE_PATH } from "./capabilities/webhooks/domain/svix-token.ts";
import { svixApi } from "./capabilities/webhooks/svix/app.ts";

/** `/api/latest` is served by rewriting it to `/api/v1`, so each route is registered once. */
const LATEST_PREFIX = "/api/latest";
/** Paths the server answers itself outside the API, never with a dashboard page (the SDK's tarballs live under /sdk/). */
const RESERVED_PREFIXES = ["/health/", "/sdk/", `${SVIX_BASE_PATH}/`];
const RESERVED_PATHS = new Set(["/health", METRICS_PATH, "/sdk", SVIX_BASE_PATH]);
/** Route labels (access log, metrics) of answers no API route gave. */
const DASHBOARD_ROUTE = "(dashboard)";
const PREFLIGHT_ROUTE = "(preflight)";

const CORS_ALLOWED_HEADERS = [
  "content-type",
  "authorization",
  // The official SDK sends it on every request; without it a browser's preflight fails.
  "ngrok-skip-browser-warning",
  // The `svix` client's, for the webhooks management API in a browser (capabilities/webhooks/svix/app.ts).
  "idempotency-key",
  "svix-req-id",
  "svix-retry-count",
  ...STACK_REQUEST_HEADERS.flatMap((h) => [`x-stack-${h}`, `x-hexclave-${h}`]),
].join(", ");

/** `apiRoutes`: the route table (route-table.ts `loadRoutes()`), or a test's own routes. */
export function createApp(services: Services, apiRoutes: RouteDefinition[]) {
  const app = new Hono({
    router: new StaticMemoRouter(),
    getPath: (request) => {
      const path = getPath(request);
      return path === LATEST_PREFIX || path.startsWith(`${LATEST_PREFIX}/`) ? API_PREFIX + path.slice(LATEST_PREFIX.length) : path;
    },
  });
  const routes = [...apiRoutes, ...openApiRoutes(apiRoutes)];

  // CORS: every response carries allow-origin and expose-headers (see
  // http/response.ts); preflights are answered here, before routing.
  app.options("*", () => {
    nameRoute(PREFLIGHT_ROUTE);
    return emptyResponse(204, {
      "access-control-allow-methods": "GET, POST, PATCH, PUT, DELETE, OPTIONS",
      "access-control-allow-headers": CORS_ALLOWED_HEADERS,
      "access-control-max-age": "86400",
    });
  });

  app.onError((error, c) => {
    if (error instanceof KnownError) return knownErrorResponse(error);
    if (error instanceof InvalidInput)
      return knownErrorResponse(schemaError(c.req.method, new URL(c.req.url).pathname, [...error.messages]));
    if (error instanceof RateLimitedError) {
      return textResponse(429, error.message, { "retry-after": String(error.retryAfterSeconds) });
    }
    if (error instanceof StatusError) return textResponse(error.status, error.message, retryAfter(error.status));
    // Only raised in test mode (ServerConfig.checkResponses): say what drifted.
    if (error instanceof ResponseSchemaMismatch) return textResponse(500, error.message);
    if (isDatabaseUnavailable(error)) {
      // Not the caller's fault, and likely over in a moment (a restart, a failover): say when to come back.
      services.logger.warn({ err: error, method: c.req.method, path: new URL(c.req.url).pathname }, "database unavailable");
      return textResponse(503, DATABASE_UNAVAILABLE_MESSAGE, { "retry-after": String(DATABASE_RETRY_AFTER_SECONDS) });
    }
    // Never echo internals to the caller; the log has the stack.
    services.logger.error({ err: error, method: c.req.method, path: new URL(c.req.url).pathname }, "unhandled error");
    return textResponse(500, "Internal server error. The error was logged; please try again or report it.");
  });
  // A known path asked with another method is 405, not 404: the not-found
  // handler looks the path up among the registered ones.
  const knownPaths = new TrieRouter<true>();
  app.notFound((c) => {
    if (knownPaths.match("ALL", c.req.path)[0].length > 0) return textResponse(405, "Method not allowed");
    // Outside the API, paths are the dashboard's pages and files.
    const path = c.req.path;
    const page = isDashboardPath(path) ? services.dashboard?.respond(path, c.req.method, c.req.header("accept")) : null;
    if (page) nameRoute(DASHBOARD_ROUTE);
    return page ?? textResponse(404, "Not found. See /api/v1/openapi.json for the list of endpoints.");
  });

  // The SDK's packages, for apps to install from this server (outside /api/v1: files, not an endpoint).
  const sdk = new SdkPackages(services.config.sdkDir, services.config.apiUrl);
  app.get("/sdk/:file", (c) => sdk.respond(c.req.param("file"), c.req.header("if-none-match")));

  // The Svix-compatible webhooks management API: Svix's wire, not the API's (capabilities/webhooks/svix/app.ts).
  app.route(SVIX_BASE_PATH, svixApi(services));

  // Operating endpoints, outside the API and the dashboard (http/health.ts, http/metrics.ts).
  const operating: [string, (c: Context) => Response | Promise<Response>][] = [
    [HEALTH_LIVE_PATH, () => liveResponse()],
    [HEALTH_READY_PATH, () => readyResponse(services.readiness)],
    [METRICS_PATH, (c) => metricsResponse(services.config, services.metrics, c.req.raw.headers)],
  ];
  for (const [path, answer] of operating) {
    app.get(path, (c) => {
      nameRoute(path);
      return answer(c);
    });
    knownPaths.add("ALL", path, true);
  }

  // Static segments before parameters, so /users/me wins over /users/:user_id (see compareRoutes).
  const ordered = [...routes].sort(compareRoutes);
  for (const route of ordered) {
    const handler = routeHandler(route, services, API_PREFIX + route.path);
    for (const full of fullPaths(route.path)) {
      app.on(route.method, full, handler);
      knownPaths.add("ALL", full, true);
    }
  }
  // Every request, answered by whichever handler, is logged and counted (http/access-log.ts).
  app.fetch = observeRequests(app.fetch, services.logger, services.metrics, services.config.accessLog);
  // Browsers that reached the server over https keep to it (http/response.ts).
  const transportSecurity = strictTransportSecurity(services.config.apiUrl);
  if (transportSecurity !== null) app.fetch = withStrictTransportSecurity(app.fetch, transportSecurity);
  return app;
}

/** Whether the dashboard may answer this path: not the API's, and not one the server keeps for itself. */
function isDashboardPath(path: string): boolean {
  if (path === "/api" || path.startsWith("/api/") || RESERVED_PATHS.has(path)) return false;
  return !RESERVED_PREFIXES.some((prefix) => path.startsWith(prefix));
}

/** The route's full path; the root is served both as `/api/v1` and `/api/v1/`. */
function fullPaths(path: string): string[] {
  return path === "/" ? [API_PREFIX, `${API_PREFIX}/`] : [API_PREFIX + path];
}
