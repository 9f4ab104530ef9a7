/**
 * The Svix-compatible management API, served under SVIX_BASE_PATH (domain/svix-token.ts) so that the `svix`
 * client, made as `new Svix(token, { serverUrl: <api url>/svix })` with a token of POST /webhooks/svix-token,
 * works unchanged. It speaks Svix's wire, not ours: camelCase JSON, `Authorization: Bearer`, lists as
 * `{data, iterator, done}`, errors as `{code, detail}` (401, 404, 405, 409) and validation errors as
 * `{detail: [{loc, msg, type}]}` (422). One application per project: its id, uid and name are the project's id.
 *
 * The subset served: the application (get, and create as get-or-create); endpoints (create, list, get, update,
 * patch, delete, secret, rotation, recovery); messages (create, list, get); attempts by endpoint and by
 * message; resending a message to an endpoint. Plain Hono routes rather than defineRoute: the API's pipeline
 * (x-stack-* headers, our error catalogue) is exactly what this wire does not use.
 */
import type { Hono } from "hono";
import type { Services } from "../../../services.ts";
import { applicationRoutes } from "./application.ts";
import { attemptRoutes } from "./attempts.ts";
import { endpointRoutes } from "./endpoints.ts";
import { messageRoutes } from "./messages.ts";
import { svixRouter } from "./router.ts";

export function svixApi(services: Services): Hono {
  const { api, route, refuseOtherMethods } = svixRouter(services);
  applicationRoutes(route, services);
  endpointRoutes(route, services);
  messageRoutes(route, services);
  attemptRoutes(route, services);
  refuseOtherMethods();
  return api;
}
