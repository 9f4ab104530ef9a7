/**
 * The OpenAPI 3.1 document, generated from the route declarations: every
 * route appears, with its parameters, body schema and who may call it.
 */
import { z } from "zod";
import type { RouteDefinition } from "./route.ts";

function jsonSchema(schema: z.ZodType): Record<string, unknown> {
  return z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as Record<string, unknown>;
}

function parameters(route: RouteDefinition) {
  const out: Record<string, unknown>[] = [];
  const add = (where: "path" | "query", schema: z.ZodType | undefined) => {
    if (!schema) return;
    const json = jsonSchema(schema) as { properties?: Record<string, unknown>; required?: string[] };
    for (const [name, prop] of Object.entries(json.properties ?? {})) {
      out.push({ name, in: where, required: where === "path" || (json.required ?? []).includes(name), schema: prop });
    }
  };
  add("path", route.params);
  add("query", route.query);
  return out;
}

const SECURITY_HEADERS = {
  client: ["x-stack-publishable-client-key"],
  server: ["x-stack-secret-server-key"],
  admin: ["x-stack-super-secret-admin-key", "x-stack-admin-access-token"],
};

export function buildOpenApiDocument(routes: RouteDefinition[], serverUrl: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const path = route.path.replace(/:([A-Za-z0-9_]+)/g, "{$1}");
    const access = route.access === "public" ? [] : [...route.access];
    paths[path] ??= {};
    paths[path][route.method.toLowerCase()] = {
      summary: route.summary,
      tags: route.tags,
      operationId: `${route.method.toLowerCase()}${path.replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ?? "").toUpperCase())}`,
      "x-access-types": access,
      ...(route.user === "required" ? { "x-requires-user": true } : {}),
      parameters: [
        ...(access.length > 0
          ? [
              { name: "x-stack-access-type", in: "header", required: true, schema: { type: "string", enum: access } },
              { name: "x-stack-project-id", in: "header", required: true, schema: { type: "string" } },
              ...[...new Set(access.flatMap((a) => SECURITY_HEADERS[a]))].map((name) => ({
                name,
                in: "header",
                required: false,
                schema: { type: "string" },
              })),
              { name: "x-stack-access-token", in: "header", required: route.user === "required", schema: { type: "string" } },
            ]
          : []),
        ...parameters(route),
      ],
      ...(route.body
        ? { requestBody: { required: true, content: { "application/json": { schema: jsonSchema(route.body) } } } }
        : {}),
      responses: {
        [String(route.status ?? 200)]: {
          description: "Success",
          ...(route.response ? { content: { "application/json": { schema: jsonSchema(route.response) } } } : {}),
        },
        "4XX": {
          description: "A coded error: JSON {code, details?, error} with the x-stack-known-error header",
        },
      },
    };
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Latchkey API",
      version: "1.0.0",
      description: "Authentication and user management. Every path is also served under /api/latest.",
    },
    servers: [{ url: `${serverUrl}/api/v1` }],
    paths,
  };
}
