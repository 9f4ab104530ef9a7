import { buildOpenApiDocument } from "../http/openapi.ts";
import { defineRoute, type RouteDefinition } from "../http/route.ts";

/** Built from the app's own route list, so it cannot drift from what is served. */
export function openApiRoutes(routes: RouteDefinition[]): RouteDefinition[] {
  let document: unknown = null;
  const self = defineRoute({
    method: "GET",
    path: "/openapi.json",
    summary: "This API's OpenAPI document",
    tags: ["Meta"],
    access: "public",
    handler: ({ services }) => {
      document ??= buildOpenApiDocument([...routes, self], services.config.apiUrl);
      return { body: document };
    },
  });
  return [self];
}
