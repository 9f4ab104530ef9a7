import { metaEndpoints, type OpenApiDocumentJson } from "@latchkey/shared";
import { buildOpenApiDocument } from "./openapi.ts";
import { defineRoute, type RouteDefinition } from "./route.ts";

/**
 * GET /openapi.json, built from the app's own route list, so it cannot drift
 * from what is served. It is not a file under routes/ because it documents
 * whichever routes an app is given (app.ts adds it to every app).
 */
export function openApiRoutes(routes: RouteDefinition[]): RouteDefinition[] {
  let document: OpenApiDocumentJson | null = null;
  const self = defineRoute(metaEndpoints.openApiDocument, ({ services }) => {
    document ??= buildOpenApiDocument([...routes, self], services.config.apiUrl);
    return { body: document };
  });
  return [self];
}
