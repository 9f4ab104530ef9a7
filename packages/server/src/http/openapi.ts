/**
 * The OpenAPI 3.1 document, generated from the route declarations (the
 * contract in @latchkey/shared): every route with its parameters, request and
 * response bodies, who may call it (security schemes for the x-stack-*
 * headers) and the coded errors it can answer with.
 */
import { KnownErrors, type KnownErrorClass } from "@latchkey/shared";
import { z } from "zod";
import { allowedAccess, type RouteDefinition } from "./route.ts";

/**
 * Schemas that zod writes with local definitions (recursive ones, such as
 * JSON metadata) have them moved to `components.schemas`, so a schema placed
 * anywhere in the document still resolves its references.
 */
class SchemaWriter {
  readonly components: Record<string, unknown> = {};
  readonly #names = new Map<string, string>();

  write(schema: z.ZodType, io: "input" | "output"): Record<string, unknown> {
    const json = z.toJSONSchema(schema, { io, unrepresentable: "any", target: "draft-2020-12" }) as Record<string, unknown>;
    delete json.$schema;
    const defs = (json.$defs ?? {}) as Record<string, unknown>;
    delete json.$defs;
    const renamed = new Map<string, string>();
    for (const [local, definition] of Object.entries(defs)) {
      const text = JSON.stringify(definition);
      let name = this.#names.get(text);
      if (!name) {
        name = /^__schema\d+$/.test(local) || local in this.components ? `Schema${this.#names.size + 1}` : local;
        this.#names.set(text, name);
      }
      renamed.set(local, name);
    }
    const relink = (value: unknown): unknown => {
      if (Array.isArray(value)) return value.map(relink);
      if (value === null || typeof value !== "object") return value;
      return Object.fromEntries(
        Object.entries(value).map(([key, inner]) =>
          key === "$ref" && typeof inner === "string" && inner.startsWith("#/$defs/")
            ? [key, `#/components/schemas/${renamed.get(inner.slice("#/$defs/".length))}`]
            : [key, relink(inner)],
        ),
      );
    };
    for (const [local, definition] of Object.entries(defs)) this.components[renamed.get(local)!] ??= relink(definition);
    return relink(json) as Record<string, unknown>;
  }
}

function parameters(route: RouteDefinition, schemas: SchemaWriter) {
  const out: Record<string, unknown>[] = [];
  const add = (where: "path" | "query", schema: z.ZodType | undefined) => {
    if (!schema) return;
    const json = schemas.write(schema, "input") as { properties?: Record<string, unknown>; required?: string[] };
    for (const [name, prop] of Object.entries(json.properties ?? {})) {
      out.push({ name, in: where, required: where === "path" || (json.required ?? []).includes(name), schema: prop });
    }
  };
  add("path", route.params);
  add("query", route.query);
  return out;
}

/** One scheme per credential header; a route's security lists the combinations that authenticate it. */
const SECURITY_SCHEMES = {
  AccessType: { header: "x-stack-access-type", description: "client, server or admin" },
  ProjectId: { header: "x-stack-project-id", description: "The project's id" },
  PublishableClientKey: {
    header: "x-stack-publishable-client-key",
    description: "Client access: the project's publishable key (when the project requires one)",
  },
  SecretServerKey: { header: "x-stack-secret-server-key", description: "Server access: a secret server key" },
  SuperSecretAdminKey: { header: "x-stack-super-secret-admin-key", description: "Admin access: a super secret admin key" },
  AdminAccessToken: {
    header: "x-stack-admin-access-token",
    description: "Admin access: a project owner's access token on the internal project",
  },
  AccessToken: { header: "x-stack-access-token", description: "The signed-in user's access token" },
} as const;
type Scheme = keyof typeof SECURITY_SCHEMES;

function security(route: RouteDefinition): Record<string, string[]>[] {
  const access = allowedAccess(route);
  const alternatives: Scheme[][] = [];
  if (access.includes("client")) alternatives.push(["PublishableClientKey"], []);
  if (access.includes("server")) alternatives.push(["SecretServerKey"]);
  if (access.includes("admin")) alternatives.push(["SuperSecretAdminKey"], ["AdminAccessToken"]);
  return alternatives.map((credentials) => {
    const schemes: Scheme[] = ["AccessType", "ProjectId", ...credentials];
    if (route.user === "required") schemes.push("AccessToken");
    return Object.fromEntries(schemes.map((scheme) => [scheme, []]));
  });
}

/** What any request can fail with before its handler runs. */
const REQUEST_ERRORS: KnownErrorClass[] = [KnownErrors.BodyParsingError, KnownErrors.SchemaError];
const AUTHENTICATION_ERRORS: KnownErrorClass[] = [
  KnownErrors.ProjectKeyWithoutAccessType,
  KnownErrors.AccessTypeRequired,
  KnownErrors.InvalidAccessType,
  KnownErrors.AccessTypeWithoutProjectId,
  KnownErrors.AccessTokenExpired,
  KnownErrors.UnparsableAccessToken,
  KnownErrors.InvalidProjectForAccessToken,
  KnownErrors.AnonymousAuthenticationNotAllowed,
  KnownErrors.RestrictedUserNotAllowed,
  KnownErrors.CurrentProjectNotFound,
  KnownErrors.AdminAccessTokenExpired,
  KnownErrors.UnparsableAdminAccessToken,
  KnownErrors.AdminAccessTokenIsNotAdmin,
  KnownErrors.PublishableClientKeyRequiredForProject,
  KnownErrors.InvalidPublishableClientKey,
  KnownErrors.ServerAuthenticationRequired,
  KnownErrors.InvalidSecretServerKey,
  KnownErrors.AdminAuthenticationRequired,
  KnownErrors.InvalidSuperSecretAdminKey,
  KnownErrors.BranchDoesNotExist,
  KnownErrors.InsufficientAccessType,
];

/** What the declared team-permission check answers a client with (http/team-permission.ts). */
const TEAM_PERMISSION_ERRORS = [
  KnownErrors.UserAuthenticationRequired,
  KnownErrors.TeamMembershipNotFound,
  KnownErrors.TeamPermissionRequired,
];

/** Every coded error a route can answer with: its own, and those of the pipeline before it. */
export function routeErrors(route: RouteDefinition): KnownErrorClass[] {
  const all = [
    ...REQUEST_ERRORS,
    ...(route.access === "public" ? [] : AUTHENTICATION_ERRORS),
    ...(route.teamPermission
      ? route.teamPermission.refusal
        ? [KnownErrors.UserAuthenticationRequired, route.teamPermission.refusal]
        : TEAM_PERMISSION_ERRORS
      : []),
    ...(route.errors ?? []),
  ];
  return [...new Map(all.map((error) => [error.code, error])).values()];
}

function errorResponses(route: RouteDefinition): Record<string, unknown> {
  const byStatus = new Map<number, string[]>();
  for (const error of routeErrors(route)) byStatus.set(error.statusCode, [...(byStatus.get(error.statusCode) ?? []), error.code]);
  const out: Record<string, unknown> = {};
  for (const [status, codes] of [...byStatus].sort(([a], [b]) => a - b)) {
    out[String(status)] = {
      description: `A coded error (the x-stack-known-error header names it): ${codes.join(", ")}`,
      headers: { "x-stack-known-error": { schema: { type: "string", enum: codes } } },
      content: {
        "application/json": {
          schema: {
            type: "object",
            required: ["code", "error"],
            properties: { code: { type: "string", enum: codes }, details: { type: "object" }, error: { type: "string" } },
          },
        },
      },
    };
  }
  return out;
}

function successResponse(route: RouteDefinition, schemas: SchemaWriter): Record<string, unknown> {
  const answer = successAnswer(route, schemas);
  return Object.fromEntries([route.status ?? 200, ...(route.otherStatuses ?? [])].map((status) => [String(status), answer]));
}

function successAnswer(route: RouteDefinition, schemas: SchemaWriter): Record<string, unknown> {
  if (!route.response) return { description: "Success" };
  const type = route.responseType ?? "json";
  if (type === "redirect") {
    return { description: "A redirect", headers: { location: { schema: schemas.write(route.response, "output") } } };
  }
  if (type === "binary") {
    // The response schema is an enum of the Content-Types the file may have.
    const contentTypes = "options" in route.response ? (route.response.options as string[]) : ["application/octet-stream"];
    const file = { schema: { type: "string", format: "binary" } };
    return { description: "The file", content: Object.fromEntries(contentTypes.map((t) => [t, file])) };
  }
  const mediaType = type === "text" ? "text/plain" : "application/json";
  const server = schemas.write(route.response, "output");
  const schema = route.clientResponse
    ? {
        oneOf: [server, schemas.write(route.clientResponse, "output")],
        description: "The second form is what a caller with client access receives.",
      }
    : server;
  return { description: "Success", content: { [mediaType]: { schema } } };
}

export function buildOpenApiDocument(routes: RouteDefinition[], serverUrl: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  const schemas = new SchemaWriter();
  for (const route of routes) {
    const path = route.path.replace(/:([A-Za-z0-9_]+)/g, "{$1}");
    const access = allowedAccess(route);
    paths[path] ??= {};
    paths[path][route.method.toLowerCase()] = {
      summary: route.summary,
      tags: route.tags,
      operationId: `${route.method.toLowerCase()}${path.replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ?? "").toUpperCase())}`,
      "x-access-types": access,
      ...(route.user === "required" ? { "x-requires-user": true } : {}),
      "x-known-errors": routeErrors(route).map((error) => error.code),
      security: access.length > 0 ? security(route) : [],
      parameters: parameters(route, schemas),
      ...(route.body
        ? { requestBody: { required: true, content: { "application/json": { schema: schemas.write(route.body, "input") } } } }
        : {}),
      responses: { ...successResponse(route, schemas), ...errorResponses(route) },
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
    components: {
      schemas: schemas.components,
      securitySchemes: Object.fromEntries(
        Object.entries(SECURITY_SCHEMES).map(([name, { header, description }]) => [
          name,
          { type: "apiKey", in: "header", name: header, description },
        ]),
      ),
    },
    paths,
  };
}
