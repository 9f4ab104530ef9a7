/**
 * Endpoints in the Svix-compatible API (app.ts): create, list, get, create-or-replace, patch, delete, and the
 * signing secret (read, rotate). Recovery, which resends to an endpoint, is with the attempts (attempts.ts).
 */
import { and, desc, eq, lt, type SQL } from "drizzle-orm";
import type { Context } from "hono";
import { z } from "zod";
import type { Services } from "../../../services.ts";
import { webhookEndpoints, type WebhookEndpointRow } from "../schema.ts";
import {
  createEndpoint,
  deleteEndpoint,
  endpointSecret,
  findEndpoint,
  rotateEndpointSecret,
  updateEndpoint,
  type EndpointFields,
} from "../domain/endpoints.ts";
import { evidentlyPrivateHost } from "../domain/send.ts";
import { conflict, listQuery, notFound, page, parsed, SvixError, type SvixRoute } from "./router.ts";

/** Svix's secret format: `whsec_` (optional) and base64 of 24 to 75 bytes. */
const secretSchema = z.string().regex(/^(whsec_)?[a-zA-Z0-9+/=]{32,100}$/, "Invalid secret format");
const urlSchema = z
  .string()
  .url()
  .refine((url) => /^https?:\/\//i.test(url), "The URL must be http or https");
const eventTypesSchema = z.array(z.string().min(1)).nullish();
const metadataSchema = z.record(z.string(), z.string()).nullish();

/** EndpointIn, EndpointUpdate and EndpointPatch: older clients say filterTypes and rateLimit, newer ones eventTypes and throttleRate. */
const endpointFieldsSchema = z.object({
  url: urlSchema,
  description: z.string().nullish(),
  disabled: z.boolean().nullish(),
  filterTypes: eventTypesSchema,
  eventTypes: eventTypesSchema,
  uid: z
    .string()
    .regex(/^[a-zA-Z0-9\-_.]{1,256}$/)
    .nullish(),
  metadata: metadataSchema,
  rateLimit: z.number().int().positive().nullish(),
  throttleRate: z.number().int().positive().nullish(),
  version: z.number().int().nullish(),
  channels: z.array(z.string()).nullish(),
});
const endpointInSchema = endpointFieldsSchema.extend({ secret: secretSchema.nullish() });
const endpointPatchSchema = endpointFieldsSchema.partial();
const rotateSchema = z.object({ key: secretSchema.nullish() });

type EndpointInput = z.infer<typeof endpointFieldsSchema>;

/** A URL the server would never send to (LATCHKEY_WEBHOOKS_ALLOW_PRIVATE_URLS unset) is refused as a field of the body. */
function checkPublicUrl(services: Services, url: string | undefined): void {
  if (url === undefined || services.config.webhooksAllowPrivateUrls) return;
  const host = evidentlyPrivateHost(url);
  if (host === null) return;
  const msg = `The host ${host} is on a private or local network, which this server does not send webhooks to.`;
  throw new SvixError(422, { detail: [{ loc: ["body", "url"], msg, type: "value_error" }] });
}

/** What the caller sent, in our fields; keys the caller left out are left out. */
function endpointFields(input: Partial<EndpointInput>): Partial<EndpointFields> {
  const filterTypes = input.filterTypes !== undefined ? input.filterTypes : input.eventTypes;
  const rateLimit = input.rateLimit !== undefined ? input.rateLimit : input.throttleRate;
  const fields: Partial<EndpointFields> = {};
  if (input.url !== undefined) fields.url = input.url;
  if (input.description !== undefined) fields.description = input.description ?? "";
  if (input.disabled !== undefined) fields.disabled = input.disabled ?? false;
  if (filterTypes !== undefined) fields.filterTypes = filterTypes && filterTypes.length > 0 ? filterTypes : null;
  if (input.uid !== undefined) fields.uid = input.uid;
  if (input.metadata !== undefined) fields.metadata = input.metadata ?? {};
  if (rateLimit !== undefined) fields.rateLimit = rateLimit;
  return fields;
}

function endpointJson(endpoint: WebhookEndpointRow) {
  return {
    id: endpoint.id,
    url: endpoint.url,
    description: endpoint.description,
    disabled: endpoint.disabled,
    filterTypes: endpoint.filterTypes,
    // The same, under the names newer Svix clients read.
    eventTypes: endpoint.filterTypes,
    channels: null,
    uid: endpoint.uid,
    version: endpoint.version,
    rateLimit: endpoint.rateLimit,
    throttleRate: endpoint.rateLimit,
    metadata: endpoint.metadata,
    createdAt: endpoint.createdAt.toISOString(),
    updatedAt: endpoint.updatedAt.toISOString(),
  };
}

/** The endpoint the path's `endpoint_id` names (its id or uid) in the project; 404 otherwise. */
export async function endpointOf(services: Services, c: Context, projectId: string): Promise<WebhookEndpointRow> {
  const endpoint = await findEndpoint(services.db, projectId, c.req.param("endpoint_id")!);
  if (!endpoint) throw notFound();
  return endpoint;
}

export function endpointRoutes(route: SvixRoute, services: Services): void {
  /** A uid names one endpoint of the project: another's is a conflict. */
  async function checkUid(projectId: string, uid: string | null | undefined, self?: WebhookEndpointRow): Promise<void> {
    if (!uid) return;
    const holder = await findEndpoint(services.db, projectId, uid);
    if (holder && holder.id !== self?.id) throw conflict("An endpoint with this uid already exists.");
  }

  route("POST", "/app/:app_id/endpoint", async (c, projectId) => {
    const body = await parsed(endpointInSchema, c);
    checkPublicUrl(services, body.url);
    await checkUid(projectId, body.uid);
    const fields = { ...endpointFields(body), url: body.url };
    const endpoint = await createEndpoint(services, projectId, fields, body.secret ?? undefined);
    return c.json(endpointJson(endpoint), 201);
  });
  route("GET", "/app/:app_id/endpoint", async (c, projectId) => {
    const { limit, iterator } = listQuery(c);
    const conditions: SQL[] = [eq(webhookEndpoints.projectId, projectId)];
    if (iterator) conditions.push(lt(webhookEndpoints.id, iterator));
    const rows = await services.db
      .select()
      .from(webhookEndpoints)
      .where(and(...conditions))
      .orderBy(desc(webhookEndpoints.id))
      .limit(limit + 1);
    const list = page(rows, limit);
    return c.json({ ...list, data: list.data.map(endpointJson) });
  });
  route("GET", "/app/:app_id/endpoint/:endpoint_id", async (c, projectId) =>
    c.json(endpointJson(await endpointOf(services, c, projectId))),
  );
  // Create or replace (Svix's upsert): an endpoint named by a uid it does not have yet is created with that uid.
  route("PUT", "/app/:app_id/endpoint/:endpoint_id", async (c, projectId) => {
    const named = c.req.param("endpoint_id")!;
    const endpoint = await findEndpoint(services.db, projectId, named);
    const body = await parsed(endpointFieldsSchema, c);
    checkPublicUrl(services, body.url);
    // A full update: what is left out goes back to its default.
    const fields: EndpointFields = {
      description: "",
      disabled: false,
      filterTypes: null,
      uid: null,
      metadata: {},
      rateLimit: null,
      ...endpointFields(body),
      url: body.url,
    };
    if (!endpoint) {
      const uidShaped = /^[a-zA-Z0-9\-_.]{1,256}$/.test(named) && !named.startsWith("ep_");
      if (!uidShaped || (fields.uid && fields.uid !== named)) throw notFound();
      await checkUid(projectId, named);
      return c.json(endpointJson(await createEndpoint(services, projectId, { ...fields, uid: named })), 201);
    }
    await checkUid(projectId, fields.uid, endpoint);
    return c.json(endpointJson(await updateEndpoint(services, endpoint, fields)));
  });
  route("PATCH", "/app/:app_id/endpoint/:endpoint_id", async (c, projectId) => {
    const endpoint = await endpointOf(services, c, projectId);
    const body = await parsed(endpointPatchSchema, c);
    checkPublicUrl(services, body.url);
    await checkUid(projectId, body.uid, endpoint);
    return c.json(endpointJson(await updateEndpoint(services, endpoint, endpointFields(body))));
  });
  route("DELETE", "/app/:app_id/endpoint/:endpoint_id", async (c, projectId) => {
    await deleteEndpoint(services.db, await endpointOf(services, c, projectId));
    return c.body(null, 204);
  });
  route("GET", "/app/:app_id/endpoint/:endpoint_id/secret", async (c, projectId) =>
    c.json({ key: endpointSecret(services, await endpointOf(services, c, projectId)) }),
  );
  route("POST", "/app/:app_id/endpoint/:endpoint_id/secret/rotate", async (c, projectId) => {
    const endpoint = await endpointOf(services, c, projectId);
    const body = await parsed(rotateSchema, c);
    await rotateEndpointSecret(services, endpoint, body.key ?? undefined);
    return c.body(null, 204);
  });
}
