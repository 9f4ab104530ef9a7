/**
 * Runs one route: body → authentication → access → input validation →
 * handler → response. Failures are thrown and mapped by the app's error
 * handler, so every route reports errors the same way.
 */
import { getConnInfo } from "@hono/node-server/conninfo";
import { KnownErrors } from "@latchkey/shared";
import type { Context } from "hono";
import type { IncomingMessage } from "node:http";
import { z } from "zod";
import type { Services } from "../services.ts";
import { authenticate } from "./auth.ts";
import { parseBody } from "./body.ts";
import { nodeHeaderReader, type HeaderReader } from "./headers.ts";
import { jsonResponse } from "./response.ts";
import { issueMessage, schemaError, type Part } from "./schema-errors.ts";
import type { RouteDefinition } from "./route.ts";

const NO_KEYS = z.object({}).strict();
const NO_BODY = NO_KEYS.optional();

export function routeHandler(route: RouteDefinition, services: Services) {
  return async (c: Context): Promise<Response> => {
    const request = c.req.raw;
    const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
    const headers: HeaderReader = incoming ? nodeHeaderReader(incoming.headers) : request.headers;
    // On a socket, HTTP/1.1 announces any body with content-length or
    // transfer-encoding; without them, skip building a body stream.
    const noBody = incoming && !incoming.headers["transfer-encoding"] && !Number(incoming.headers["content-length"] ?? 0);
    const rawBody = noBody ? undefined : await parseBody(request, headers);
    const auth = await authenticate(services, headers);
    // Error messages name the path as called (c.req.path may be the /api/latest rewrite).
    const pathname = () => new URL(request.url).pathname;

    if (route.access !== "public") {
      if (!auth) throw new KnownErrors.AccessTypeRequired();
      if (!route.access.includes(auth.type)) throw new KnownErrors.InsufficientAccessType(auth.type, [...route.access]);
      if (route.user === "required" && !auth.user) {
        throw schemaError(request.method, pathname(), ["auth.user must be defined"]);
      }
    }

    const messages: string[] = [];
    const parse = (part: Part, schema: z.ZodType | undefined, value: unknown) => {
      if (!schema) return undefined;
      const result = schema.safeParse(value, { reportInput: true });
      if (result.success) return result.data;
      for (const issue of result.error.issues) messages.push(issueMessage(part, issue));
      return undefined;
    };
    const params = parse("params", route.params, c.req.param());
    // A route that declares no query or body still refuses unknown keys
    // (WIRE §1.1); with nothing sent there is nothing to check.
    const search = request.url.indexOf("?");
    const rawQuery = search < 0 ? {} : Object.fromEntries(new URLSearchParams(request.url.slice(search + 1)));
    const query = route.query || search >= 0 ? parse("query", route.query ?? NO_KEYS, rawQuery) : undefined;
    const bodySchema = (auth?.type === "client" && route.clientBody) || route.body;
    const body = bodySchema || rawBody !== undefined ? parse("body", bodySchema ?? NO_BODY, rawBody) : undefined;
    if (messages.length > 0) throw schemaError(request.method, pathname(), messages);

    const result = await route.handler({
      body,
      query,
      params,
      auth: auth as never,
      services,
      request,
      headers,
      // Looked up only by the routes that record it.
      get ip() {
        return clientIp(c);
      },
    });
    if (result instanceof Response) return result;
    return jsonResponse(result.status ?? route.status ?? 200, result.body, result.headers);
  };
}

function clientIp(c: Context): string | null {
  try {
    return getConnInfo(c).remote.address ?? null;
  } catch {
    return null;
  }
}
