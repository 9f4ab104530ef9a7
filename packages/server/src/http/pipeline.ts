/**
 * Runs one route: body → authentication → access → input validation →
 * setting gate → team permission → handler → response. Failures are thrown and mapped by the app's error
 * handler, so every route reports errors the same way.
 *
 * This runs on every request: it creates no closures per request and reads
 * only the parts of the request a route uses.
 */
import { getConnInfo } from "@hono/node-server/conninfo";
import { KnownErrors, StatusError } from "@latchkey/shared";
import type { Context } from "hono";
import type { IncomingMessage } from "node:http";
import { inspect } from "node:util";
import { z } from "zod";
import { isDatabaseUnavailable } from "../db/errors.ts";
import { isPromise, run, settle, type MaybePromise, type Steps } from "../lib/maybe-async.ts";
import type { Services } from "../services.ts";
import { authenticate, type RequestAuth } from "./auth.ts";
import { decodeBody, parseBody, readBodyBytes } from "./body.ts";
import { NodeHeaderReader, type HeaderReader } from "./headers.ts";
import { checkedResponse } from "./response-check.ts";
import { jsonResponse, jsonTextResponse } from "./response.ts";
import { issueMessage, schemaError, type Part } from "./schema-errors.ts";
import { preReadBody } from "./small-bodies.ts";
import { requireTeamPermission } from "./team-permission.ts";
import type { HandlerInput, RouteDefinition } from "./route.ts";
import { nameRoute } from "./access-log.ts";

const NO_KEYS = z.object({}).strict();
const NO_BODY = NO_KEYS.optional();

/** `pattern`: the route's full path pattern, which the access log and the metrics name it by (never the path itself). */
export function routeHandler(route: RouteDefinition, services: Services, pattern: string) {
  // Decided once per route: with the check off, answers are not looked at.
  const check = services.config.checkResponses;
  return (c: Context): MaybePromise<Response> => {
    nameRoute(pattern);
    try {
      const response = run(handle(route, services, c, check));
      if (!isPromise(response)) return response;
      return c.req.method === "GET" ? settleRetryingRead(response, route, services, c, check, pattern) : response.catch(rethrowAsError);
    } catch (error) {
      return rethrowAsError(error);
    }
  };
}

async function settleRetryingRead(
  first: Promise<Response>,
  route: RouteDefinition,
  services: Services,
  c: Context,
  check: boolean,
  pattern: string,
): Promise<Response> {
  try {
    return await first;
  } catch (error) {
    if (!isRetriableRead(c, error)) rethrowAsError(error);
    services.logger.warn({ err: error, method: "GET", path: pattern }, "database connection lost; the read is retried");
  }
  try {
    return await run(handle(route, services, c, check));
  } catch (error) {
    rethrowAsError(error);
  }
}

/**
 * A read whose database connection died under it is run once more, on a
 * fresh connection from the pool, so a restart or failover of PostgreSQL
 * does not fail every read in flight. Only bodiless GETs: a write is never
 * run twice, and a body cannot be read twice.
 */
function isRetriableRead(c: Context, error: unknown): boolean {
  return hasNoBody(c) && isDatabaseUnavailable(error);
}

function hasNoBody(c: Context): boolean {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  return incoming ? !incoming.headers["transfer-encoding"] && !Number(incoming.headers["content-length"] ?? 0) : c.req.raw.body === null;
}

/** Hono only hands Error instances to onError; anything else thrown would escape as an unlogged failure. */
function rethrowAsError(error: unknown): never {
  throw error instanceof Error ? error : new Error(`Non-Error value thrown: ${inspect(error)}`, { cause: error });
}

/**
 * Steps (lib/maybe-async.ts): a request with no body whose credentials and
 * user are cached, answered by a handler that does not wait, is answered
 * synchronously, which keeps the Node adapter on its fast path.
 */
function* handle(route: RouteDefinition, services: Services, c: Context, check: boolean): Steps<Response> {
  const request = c.req.raw;
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  const headers: HeaderReader = incoming ? new NodeHeaderReader(incoming.headers) : request.headers;
  // On a socket, HTTP/1.1 announces any body with content-length or
  // transfer-encoding; without them, skip building a body stream (asking
  // the adapter's request for its body would build a whole web Request).
  const noBody = hasNoBody(c);
  const preRead = preReadBody(incoming);
  const rawBody = noBody
    ? undefined
    : route.rawBody
      ? (preRead ?? (yield* settle(readBodyBytes(request, headers))))
      : preRead
        ? decodeBody(preRead, headers)
        : yield* settle(parseBody(request, headers));
  const auth = yield* authenticate(services, headers);

  if (route.access !== "public") {
    if (!auth) throw new KnownErrors.AccessTypeRequired();
    if (!route.access.includes(auth.type)) throw new KnownErrors.InsufficientAccessType(auth.type, [...route.access]);
    if (route.user === "required" && !auth.user) throw schemaError(request.method, pathOf(request), ["auth.user must be defined"]);
  }

  const messages: string[] = [];
  const params = route.params ? parsePart(messages, "params", route.params, c.req.param()) : undefined;
  // A route that declares no query or body still refuses unknown keys;
  // with nothing sent there is nothing to check.
  const url = request.url;
  const search = url.indexOf("?");
  const query =
    route.query || search >= 0
      ? parsePart(
          messages,
          "query",
          route.query ?? NO_KEYS,
          search < 0 ? {} : Object.fromEntries(new URLSearchParams(url.slice(search + 1))),
        )
      : undefined;
  const bodySchema = (auth?.type === "client" && route.clientBody) || route.body;
  // A DELETE's body, where the route declares none, is ignored, as the reference ignores it (clients
  // send one out of habit); it is still read, so a malformed one stays BODY_PARSING_ERROR.
  const checksBody = !route.rawBody && (bodySchema || (rawBody !== undefined && request.method !== "DELETE"));
  const body = route.rawBody ? rawBody : checksBody ? parsePart(messages, "body", bodySchema || NO_BODY, rawBody) : undefined;
  if (messages.length > 0) throw schemaError(request.method, pathOf(request), messages);
  if (route.enabledBy && auth && !route.enabledBy.isOn(auth.project.rendered)) throw new StatusError(400, route.enabledBy.offMessage);
  if (route.teamPermission && auth) yield* requireTeamPermission(services, auth, route.teamPermission, { params, query, body });

  const result = yield* settle(route.handler(new Input(body, query, params, auth, services, request, headers, c)));
  if (check) return yield* settle(checkedResponse(route, auth?.type ?? null, result));
  if (result instanceof Response) return result;
  if ("json" in result) return jsonTextResponse(result.status ?? route.status ?? 200, result.json, result.headers);
  return jsonResponse(result.status ?? route.status ?? 200, result.body, result.headers);
}

function parsePart(messages: string[], part: Part, schema: z.ZodType, value: unknown): unknown {
  const result = schema.safeParse(value, { reportInput: true });
  if (result.success) return result.data;
  for (const issue of result.error.issues) messages.push(issueMessage(part, issue));
  return undefined;
}

/** Error messages name the path as called (Hono's path may be the /api/latest rewrite). */
function pathOf(request: Request): string {
  return new URL(request.url).pathname;
}

class Input implements HandlerInput<unknown, unknown, unknown, RequestAuth | null> {
  constructor(
    readonly body: unknown,
    readonly query: unknown,
    readonly params: unknown,
    readonly auth: RequestAuth | null,
    readonly services: Services,
    readonly request: Request,
    readonly headers: HeaderReader,
    private readonly context: Context,
  ) {}

  /** Looked up only by the routes that record it; through trusted proxies only (http/client-address.ts). */
  get ip(): string | null {
    return this.services.clientAddresses.address(this.peer(), this.headers);
  }

  get country(): string | null {
    return this.services.clientAddresses.country(this.peer(), this.headers);
  }

  /** The socket's peer (none under app.request()). */
  private peer(): string | undefined {
    try {
      return getConnInfo(this.context).remote.address;
    } catch {
      return undefined;
    }
  }
}
