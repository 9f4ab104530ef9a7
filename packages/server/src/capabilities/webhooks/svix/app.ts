/**
 * The Svix-compatible management API, served under SVIX_BASE_PATH (domain/svix-token.ts) so that the `svix`
 * client, made as `new Svix(token, { serverUrl: <api url>/svix })` with a token of POST /webhooks/svix-token,
 * works unchanged. It speaks Svix's wire, not ours: camelCase JSON, `Authorization: Bearer`, lists as
 * `{data, iterator, done}`, errors as `{code, detail}` (401, 404, 409) and validation errors as
 * `{detail: [{loc, msg, type}]}` (422). One application per project: its id, uid and name are the project's id.
 *
 * The subset served: the application (get, and create as get-or-create); endpoints (create, list, get, update,
 * patch, delete, secret, rotation, recovery); messages (create, list, get); attempts by endpoint and by
 * message; resending a message to an endpoint. Plain Hono routes rather than defineRoute: the API's pipeline
 * (x-stack-* headers, our error catalogue) is exactly what this wire does not use.
 */
import { and, asc, desc, eq, gte, inArray, lt, lte, type SQL } from "drizzle-orm";
import type { Json } from "@latchkey/shared";
import { Hono, type Context } from "hono";
import { z } from "zod";
import { nameRoute } from "../../../http/access-log.ts";
import { enqueueJob } from "../../../jobs/store.ts";
import type { Services } from "../../../services.ts";
import { randomCode } from "../../../lib/secrets.ts";
import {
  ATTEMPT_STATUS,
  webhookAttempts,
  webhookEndpoints,
  webhookMessages,
  type WebhookAttemptRow,
  type WebhookEndpointRow,
  type WebhookMessageRow,
} from "../schema.ts";
import {
  createEndpoint,
  deleteEndpoint,
  endpointSecret,
  findEndpoint,
  rotateEndpointSecret,
  updateEndpoint,
  type EndpointFields,
} from "../domain/endpoints.ts";
import { createMessage, wantsType } from "../domain/messages.ts";
import { evidentlyPrivateHost } from "../domain/send.ts";
import { projectOfSvixToken } from "../domain/svix-token.ts";

const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 250;

class SvixError extends Error {
  constructor(
    readonly status: 401 | 404 | 409 | 422,
    readonly body: Record<string, unknown>,
  ) {
    super(typeof body.detail === "string" ? body.detail : "Validation error");
  }
}

const unauthorized = () => new SvixError(401, { code: "authentication_failed", detail: "Invalid token" });
const notFound = () => new SvixError(404, { code: "not_found", detail: "Entity not found" });
function invalid(error: z.ZodError, where: "body" | "query"): SvixError {
  return new SvixError(422, {
    detail: error.issues.map((issue) => ({ loc: [where, ...issue.path.map(String)], msg: issue.message, type: "value_error" })),
  });
}

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
const messageInSchema = z.object({
  eventType: z.string().regex(/^[a-zA-Z0-9\-_.]{1,256}$/),
  eventId: z.string().min(1).max(256).nullish(),
  payload: z.record(z.string(), z.unknown()),
  channels: z.array(z.string()).nullish(),
});
const recoverSchema = z.object({ since: z.coerce.date(), until: z.coerce.date().nullish() });
const listQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(MAX_LIMIT).default(DEFAULT_LIMIT),
  iterator: z.string().nullish(),
});

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

/** As Svix answers it: the payload only when asked for, `{}` otherwise. */
function messageJson(message: WebhookMessageRow, withContent: boolean) {
  return {
    channels: null,
    eventId: message.eventId,
    eventType: message.eventType,
    id: message.id,
    payload: withContent ? message.payload : {},
    timestamp: message.createdAt.toISOString(),
  };
}

/** Svix's words for the attempt statuses, by number. */
const STATUS_TEXT: Record<number, string> = { 0: "success", 1: "pending", 2: "fail", 3: "sending" };

function attemptJson(attempt: WebhookAttemptRow) {
  return {
    id: attempt.id,
    msgId: attempt.messageId,
    endpointId: attempt.endpointId,
    url: attempt.url,
    status: attempt.status,
    statusText: STATUS_TEXT[attempt.status] ?? "pending",
    responseStatusCode: attempt.responseStatusCode,
    response: attempt.response,
    responseDurationMs: attempt.responseDurationMs,
    triggerType: attempt.triggerType,
    timestamp: attempt.createdAt.toISOString(),
  };
}

/** Newest first, `limit` at a time; the iterator is the last id given (ids sort by time, ids.ts). */
function page<T extends { id: string }>(rows: T[], limit: number) {
  const done = rows.length <= limit;
  const data = rows.slice(0, limit);
  return { data, iterator: data.at(-1)?.id ?? null, done };
}

function flag(c: Context, name: string, fallback: boolean): boolean {
  const value = c.req.query(name);
  return value === undefined ? fallback : value === "true";
}

async function jsonBody(c: Context): Promise<unknown> {
  const text = await c.req.text();
  if (text === "") return {};
  try {
    return JSON.parse(text);
  } catch {
    throw new SvixError(422, { detail: [{ loc: ["body"], msg: "Invalid JSON", type: "value_error.jsondecode" }] });
  }
}

async function parsed<S extends z.ZodType>(schema: S, c: Context): Promise<z.infer<S>> {
  const result = schema.safeParse(await jsonBody(c));
  if (!result.success) throw invalid(result.error, "body");
  return result.data;
}

function listQuery(c: Context) {
  const result = listQuerySchema.safeParse(c.req.query());
  if (!result.success) throw invalid(result.error, "query");
  return result.data;
}

type Handler = (c: Context, projectId: string) => Promise<Response>;

export function svixApi(services: Services): Hono {
  const api = new Hono();

  /** The project the bearer token is for; 401 without a valid one. */
  async function projectOf(c: Context): Promise<string> {
    const header = c.req.header("authorization") ?? "";
    const match = /^Bearer (.+)$/i.exec(header);
    const projectId = match ? projectOfSvixToken(services, match[1]!.trim()) : null;
    // A token outliving its project is no token.
    if (!projectId || !(await services.projects.get(projectId))) throw unauthorized();
    return projectId;
  }

  function route(method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE", path: string, handler: Handler): void {
    const pattern = `/api/v1${path}`;
    api.on(method, pattern, async (c) => {
      nameRoute(`(svix) ${method} ${pattern}`);
      let response: Response;
      try {
        const projectId = await projectOf(c);
        // One application per project, named by the project's id: any other is not there for this token.
        const appId = c.req.param("app_id");
        if (appId !== undefined && appId !== projectId) throw notFound();
        response = await handler(c, projectId);
      } catch (error) {
        if (!(error instanceof SvixError)) throw error;
        response = c.json(error.body, error.status);
      }
      // Called from the dashboard's pages, wherever they are served from, as the API is.
      response.headers.set("access-control-allow-origin", "*");
      return response;
    });
  }

  async function endpointOf(c: Context, projectId: string): Promise<WebhookEndpointRow> {
    const endpoint = await findEndpoint(services.db, projectId, c.req.param("endpoint_id")!);
    if (!endpoint) throw notFound();
    return endpoint;
  }

  async function messageOf(c: Context, projectId: string): Promise<WebhookMessageRow> {
    const id = c.req.param("msg_id")!;
    // By id, or by the eventId its sender gave (as Svix looks them up).
    const column = id.startsWith("msg_") ? webhookMessages.id : webhookMessages.eventId;
    const [message] = await services.db
      .select()
      .from(webhookMessages)
      .where(and(eq(webhookMessages.projectId, projectId), eq(column, id)))
      .orderBy(desc(webhookMessages.createdAt))
      .limit(1);
    if (!message) throw notFound();
    return message;
  }

  async function appJson(projectId: string) {
    const project = await services.projects.get(projectId);
    const createdAt = project!.createdAt.toISOString();
    return {
      id: projectId,
      uid: projectId,
      name: projectId,
      rateLimit: null,
      throttleRate: null,
      metadata: {},
      createdAt,
      updatedAt: createdAt,
    };
  }

  /** Delivering `message` to `endpoint` again, by the job runner, as a manual attempt. */
  async function resend(projectId: string, messageIds: readonly string[], endpoint: WebhookEndpointRow): Promise<void> {
    if (messageIds.length === 0) return;
    const now = services.clock.date();
    await services.events.transaction(services.db, async (tx) => {
      for (const messageId of messageIds) {
        await enqueueJob(
          tx,
          {
            kind: "webhook.deliver",
            payload: { message_id: messageId, endpoint_id: endpoint.id, manual: true },
            tenancy: { projectId, branchId: null },
          },
          now,
        );
      }
    });
  }

  // The application: this project's, there already; creating it answers it.
  route("POST", "/app", async (c, projectId) => {
    const body = await parsed(z.object({ name: z.string().optional(), uid: z.string().nullish() }), c);
    if (body.uid && body.uid !== projectId) throw notFound();
    return c.json(await appJson(projectId), 200);
  });
  route("GET", "/app/:app_id", async (c, projectId) => c.json(await appJson(projectId)));

  // Endpoints.
  /** A uid names one endpoint of the project: another's is a conflict. */
  async function checkUid(projectId: string, uid: string | null | undefined, self?: WebhookEndpointRow): Promise<void> {
    if (!uid) return;
    const holder = await findEndpoint(services.db, projectId, uid);
    if (holder && holder.id !== self?.id)
      throw new SvixError(409, { code: "conflict", detail: "An endpoint with this uid already exists." });
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
  route("GET", "/app/:app_id/endpoint/:endpoint_id", async (c, projectId) => c.json(endpointJson(await endpointOf(c, projectId))));
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
    const endpoint = await endpointOf(c, projectId);
    const body = await parsed(endpointPatchSchema, c);
    checkPublicUrl(services, body.url);
    await checkUid(projectId, body.uid, endpoint);
    return c.json(endpointJson(await updateEndpoint(services, endpoint, endpointFields(body))));
  });
  route("DELETE", "/app/:app_id/endpoint/:endpoint_id", async (c, projectId) => {
    await deleteEndpoint(services.db, await endpointOf(c, projectId));
    return c.body(null, 204);
  });
  route("GET", "/app/:app_id/endpoint/:endpoint_id/secret", async (c, projectId) =>
    c.json({ key: endpointSecret(services, await endpointOf(c, projectId)) }),
  );
  route("POST", "/app/:app_id/endpoint/:endpoint_id/secret/rotate", async (c, projectId) => {
    const endpoint = await endpointOf(c, projectId);
    const body = await parsed(rotateSchema, c);
    await rotateEndpointSecret(services, endpoint, body.key ?? undefined);
    return c.body(null, 204);
  });
  // Every message since `since` (until `until`) whose latest attempt at this endpoint failed is sent again.
  route("POST", "/app/:app_id/endpoint/:endpoint_id/recover", async (c, projectId) => {
    const endpoint = await endpointOf(c, projectId);
    const body = await parsed(recoverSchema, c);
    const conditions: SQL[] = [eq(webhookAttempts.endpointId, endpoint.id), gte(webhookMessages.createdAt, body.since)];
    if (body.until) conditions.push(lte(webhookMessages.createdAt, body.until));
    const attempts = await services.db
      .select({ messageId: webhookAttempts.messageId, status: webhookAttempts.status })
      .from(webhookAttempts)
      .innerJoin(webhookMessages, eq(webhookMessages.id, webhookAttempts.messageId))
      .where(and(...conditions))
      .orderBy(asc(webhookAttempts.createdAt), asc(webhookAttempts.id));
    const latest = new Map<string, number>();
    for (const attempt of attempts) latest.set(attempt.messageId, attempt.status);
    const failed = [...latest].filter(([, status]) => status === ATTEMPT_STATUS.failed).map(([id]) => id);
    await resend(projectId, failed, endpoint);
    return c.json(
      { id: `qtask_${randomCode(27)}`, status: "finished", task: "endpoint.recover", updatedAt: services.clock.date().toISOString() },
      202,
    );
  });

  // Messages.
  route("POST", "/app/:app_id/msg", async (c, projectId) => {
    const body = await parsed(messageInSchema, c);
    const eventId = body.eventId ?? null;
    if (eventId) {
      const [existing] = await services.db
        .select({ id: webhookMessages.id })
        .from(webhookMessages)
        .where(and(eq(webhookMessages.projectId, projectId), eq(webhookMessages.eventId, eventId)));
      if (existing) throw new SvixError(409, { code: "conflict", detail: "A message with this eventId already exists." });
    }
    const message = await services.events.transaction(services.db, async (tx) => {
      const endpoints = await tx
        .select()
        .from(webhookEndpoints)
        .where(and(eq(webhookEndpoints.projectId, projectId), eq(webhookEndpoints.disabled, false)));
      const wanting = endpoints.filter((endpoint) => wantsType(endpoint, body.eventType));
      return createMessage(services, tx, projectId, body.eventType, body.payload as Json, wanting, eventId);
    });
    return c.json(messageJson(message, flag(c, "with_content", true)), 202);
  });
  route("GET", "/app/:app_id/msg", async (c, projectId) => {
    const { limit, iterator } = listQuery(c);
    const conditions: SQL[] = [eq(webhookMessages.projectId, projectId)];
    if (iterator) conditions.push(lt(webhookMessages.id, iterator));
    const eventTypes = c.req.queries("event_types");
    if (eventTypes?.length) conditions.push(inArray(webhookMessages.eventType, eventTypes));
    const rows = await services.db
      .select()
      .from(webhookMessages)
      .where(and(...conditions))
      .orderBy(desc(webhookMessages.id))
      .limit(limit + 1);
    const list = page(rows, limit);
    const withContent = flag(c, "with_content", true);
    return c.json({ ...list, data: list.data.map((message) => messageJson(message, withContent)) });
  });
  route("GET", "/app/:app_id/msg/:msg_id", async (c, projectId) =>
    c.json(messageJson(await messageOf(c, projectId), flag(c, "with_content", true))),
  );
  route("POST", "/app/:app_id/msg/:msg_id/endpoint/:endpoint_id/resend", async (c, projectId) => {
    const message = await messageOf(c, projectId);
    const endpoint = await endpointOf(c, projectId);
    await resend(projectId, [message.id], endpoint);
    return c.json({}, 202);
  });

  // Attempts.
  async function attempts(c: Context, projectId: string, by: SQL) {
    const { limit, iterator } = listQuery(c);
    const conditions: SQL[] = [eq(webhookAttempts.projectId, projectId), by];
    if (iterator) conditions.push(lt(webhookAttempts.id, iterator));
    const status = c.req.query("status");
    if (status !== undefined && /^[0-3]$/.test(status)) conditions.push(eq(webhookAttempts.status, Number(status)));
    const rows = await services.db
      .select({ attempt: webhookAttempts, message: webhookMessages })
      .from(webhookAttempts)
      .innerJoin(webhookMessages, eq(webhookMessages.id, webhookAttempts.messageId))
      .where(and(...conditions))
      .orderBy(desc(webhookAttempts.id))
      .limit(limit + 1);
    const list = page(
      rows.map((row) => ({ ...row, id: row.attempt.id })),
      limit,
    );
    const withMsg = flag(c, "with_msg", false);
    const withContent = flag(c, "with_content", false);
    return c.json({
      ...list,
      data: list.data.map(({ attempt, message }) => ({
        ...attemptJson(attempt),
        ...(withMsg && { msg: messageJson(message, withContent) }),
      })),
    });
  }
  route("GET", "/app/:app_id/attempt/endpoint/:endpoint_id", async (c, projectId) => {
    const endpoint = await endpointOf(c, projectId);
    return attempts(c, projectId, eq(webhookAttempts.endpointId, endpoint.id));
  });
  route("GET", "/app/:app_id/attempt/msg/:msg_id", async (c, projectId) => {
    const message = await messageOf(c, projectId);
    const endpointId = c.req.query("endpoint_id");
    const by = eq(webhookAttempts.messageId, message.id);
    return attempts(c, projectId, endpointId ? and(by, eq(webhookAttempts.endpointId, endpointId))! : by);
  });

  return api;
}
