/**
 * The project's webhooks, read and changed through the Svix-compatible management API the server serves
 * (README, "Webhooks"): plain fetch with the token of POST /webhooks/svix-token, each answer checked against
 * the few fields the page shows. The application id is the project id. Plain fetch rather than the `svix`
 * client keeps the page's chunk small; the wire is the one that client speaks.
 */
import type { StackAdminApp, WebhooksToken } from "@latchkey/js";
import { useMemo } from "react";
import { z } from "zod";
import { useCurrentProject } from "../../lib/owned-projects.tsx";

/** A token lasts a day (the server's SVIX_TOKEN_LIFETIME_MILLIS); a page open longer asks for a new one well before. */
const TOKEN_REFRESH_MILLIS = 12 * 3600 * 1000;
/** The longest answer body the log shows of an attempt (the server keeps 1,000 characters). */
export const RESPONSE_PREVIEW_CHARS = 300;

const endpointSchema = z.object({
  id: z.string(),
  url: z.string(),
  description: z.string(),
  disabled: z.boolean(),
  filterTypes: z.array(z.string()).nullable(),
  createdAt: z.coerce.date(),
});
export type WebhookEndpoint = z.infer<typeof endpointSchema>;

const messageSchema = z.object({
  id: z.string(),
  eventType: z.string(),
  eventId: z.string().nullable(),
  payload: z.unknown(),
  timestamp: z.coerce.date(),
});
export type WebhookMessage = z.infer<typeof messageSchema>;

const attemptSchema = z.object({
  id: z.string(),
  msgId: z.string(),
  endpointId: z.string(),
  url: z.string(),
  status: z.number(),
  statusText: z.string(),
  responseStatusCode: z.number(),
  response: z.string(),
  responseDurationMs: z.number(),
  triggerType: z.number(),
  timestamp: z.coerce.date(),
  msg: messageSchema.optional(),
});
export type WebhookAttempt = z.infer<typeof attemptSchema>;

/** How many messages or attempts one read of the log gives, and endpoints (a project has few): "Load more" reads the next. */
export const LOG_PAGE = 50;
export const ENDPOINTS_PAGE = 250;

/** One page of a list, newest first: `iterator` names where the next starts, unless it is `done`. */
export interface ListPage<T> {
  data: T[];
  done: boolean;
  iterator: string | null;
}
const listOf = <T extends z.ZodType>(item: T) => z.object({ data: z.array(item), done: z.boolean(), iterator: z.string().nullable() });
const after = (iterator: string | null) => (iterator ? `&iterator=${encodeURIComponent(iterator)}` : "");
const secretSchema = z.object({ key: z.string() });
/** Svix's refusals: `{code, detail}`, or for a body it does not take `{detail: [{loc, msg}]}` (422). */
const errorSchema = z.object({
  detail: z.union([z.string(), z.array(z.object({ loc: z.array(z.union([z.string(), z.number()])), msg: z.string() }))]),
});

/** An endpoint as the add and edit forms send it; `filterTypes` null is every event. */
export interface EndpointInput {
  url: string;
  description: string;
  filterTypes: string[] | null;
}

/** A refusal of the management API: its words, and per body field (as the wire names it) what was wrong with it. */
export class WebhooksApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly fields: Record<string, string> = {},
  ) {
    super(message);
    this.name = "WebhooksApiError";
  }
}

async function refusal(response: Response): Promise<WebhooksApiError> {
  const text = await response.text();
  let parsed: z.infer<typeof errorSchema> | null = null;
  try {
    parsed = errorSchema.parse(JSON.parse(text));
  } catch {
    // Not Svix's shape (a proxy's page): the status and the text say what there is to say.
  }
  if (!parsed)
    return new WebhooksApiError(response.status, `The server answered ${response.status}${text ? `: ${text.slice(0, 200)}` : "."}`);
  if (typeof parsed.detail === "string") return new WebhooksApiError(response.status, parsed.detail);
  const fields: Record<string, string> = {};
  for (const issue of parsed.detail) {
    const field = issue.loc[0] === "body" && issue.loc.length > 1 ? String(issue.loc[1]) : null;
    if (field) fields[field] ??= issue.msg;
  }
  const message = parsed.detail.map((issue) => `${issue.loc.slice(1).join(".") || issue.loc.join(".")}: ${issue.msg}`).join("; ");
  return new WebhooksApiError(response.status, message, fields);
}

/** The current project's webhooks API, one per admin app (so its token is reused across the page's reads). */
export function useWebhooksApi(): WebhooksApi {
  const project = useCurrentProject();
  return useMemo(() => new WebhooksApi(project.app, project.id), [project.app, project.id]);
}

export class WebhooksApi {
  #token: { value: WebhooksToken; fetchedAt: number } | null = null;

  constructor(
    private readonly app: StackAdminApp,
    private readonly projectId: string,
  ) {}

  private async token(fresh: boolean): Promise<WebhooksToken> {
    if (fresh || !this.#token || Date.now() - this.#token.fetchedAt > TOKEN_REFRESH_MILLIS)
      this.#token = { value: await this.app.getSvixToken(), fetchedAt: Date.now() };
    return this.#token.value;
  }

  /** One call under /api/v1/app/<project id>; a 401 (the token expired, or the server secret was rotated) is tried once more with a new token. */
  private async call<T extends z.ZodType>(method: string, path: string, schema: T | null, body?: unknown): Promise<z.infer<T>> {
    for (const fresh of [false, true]) {
      const { token, url } = await this.token(fresh);
      // The path the server names, on the origin the dashboard talks to (the API's, as stack-app.ts says; the
      // Content-Security-Policy allows no other): the server's public URL may name another host for the same server.
      const base = window.location.origin + new URL(url).pathname.replace(/\/+$/, "");
      const response = await fetch(`${base}/api/v1/app/${encodeURIComponent(this.projectId)}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body !== undefined && { "content-type": "application/json" }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (response.status === 401 && !fresh) continue;
      if (!response.ok) throw await refusal(response);
      return (schema ? schema.parse(await response.json()) : undefined) as z.infer<T>;
    }
    throw new WebhooksApiError(401, "The server refused a new webhooks token.");
  }

  listEndpoints(iterator: string | null): Promise<ListPage<WebhookEndpoint>> {
    return this.call("GET", `/endpoint?limit=${ENDPOINTS_PAGE}${after(iterator)}`, listOf(endpointSchema));
  }
  getEndpoint(id: string): Promise<WebhookEndpoint> {
    return this.call("GET", `/endpoint/${encodeURIComponent(id)}`, endpointSchema);
  }
  createEndpoint(input: EndpointInput): Promise<WebhookEndpoint> {
    return this.call("POST", "/endpoint", endpointSchema, input);
  }
  updateEndpoint(id: string, input: Partial<EndpointInput> & { disabled?: boolean }): Promise<WebhookEndpoint> {
    return this.call("PATCH", `/endpoint/${encodeURIComponent(id)}`, endpointSchema, input);
  }
  async deleteEndpoint(id: string): Promise<void> {
    await this.call("DELETE", `/endpoint/${encodeURIComponent(id)}`, null);
  }
  async secret(id: string): Promise<string> {
    return (await this.call("GET", `/endpoint/${encodeURIComponent(id)}/secret`, secretSchema)).key;
  }
  async rotateSecret(id: string): Promise<void> {
    await this.call("POST", `/endpoint/${encodeURIComponent(id)}/secret/rotate`, null, {});
  }
  listMessages(iterator: string | null): Promise<ListPage<WebhookMessage>> {
    return this.call("GET", `/msg?limit=${LOG_PAGE}&with_content=false${after(iterator)}`, listOf(messageSchema));
  }
  messageAttempts(messageId: string, iterator: string | null): Promise<ListPage<WebhookAttempt>> {
    const path = `/attempt/msg/${encodeURIComponent(messageId)}?limit=${LOG_PAGE}${after(iterator)}`;
    return this.call("GET", path, listOf(attemptSchema));
  }
  endpointAttempts(endpointId: string, iterator: string | null): Promise<ListPage<WebhookAttempt>> {
    const path = `/attempt/endpoint/${encodeURIComponent(endpointId)}?limit=${LOG_PAGE}&with_msg=true${after(iterator)}`;
    return this.call("GET", path, listOf(attemptSchema));
  }
  async resend(messageId: string, endpointId: string): Promise<void> {
    await this.call("POST", `/msg/${encodeURIComponent(messageId)}/endpoint/${encodeURIComponent(endpointId)}/resend`, null, {});
  }
}
