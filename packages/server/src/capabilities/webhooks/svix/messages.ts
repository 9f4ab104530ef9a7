/**
 * Messages in the Svix-compatible API (app.ts): create (sent to the project's endpoints that want its type), list,
 * and get, by id or by the eventId its sender gave.
 */
import { and, desc, eq, inArray, lt, type SQL } from "drizzle-orm";
import type { Json } from "@latchkey/shared";
import type { Context } from "hono";
import { z } from "zod";
import type { Services } from "../../../services.ts";
import { webhookEndpoints, webhookMessages, type WebhookMessageRow } from "../schema.ts";
import { createMessage, wantsType } from "../domain/messages.ts";
import { conflict, flag, listQuery, notFound, page, parsed, type SvixRoute } from "./router.ts";

const messageInSchema = z.object({
  eventType: z.string().regex(/^[a-zA-Z0-9\-_.]{1,256}$/),
  eventId: z.string().min(1).max(256).nullish(),
  payload: z.record(z.string(), z.unknown()),
  channels: z.array(z.string()).nullish(),
});

/** As Svix answers it: the payload only when asked for, `{}` otherwise. */
export function messageJson(message: WebhookMessageRow, withContent: boolean) {
  return {
    channels: null,
    eventId: message.eventId,
    eventType: message.eventType,
    id: message.id,
    payload: withContent ? message.payload : {},
    timestamp: message.createdAt.toISOString(),
  };
}

/** The message the path's `msg_id` names in the project; 404 otherwise. */
export async function messageOf(services: Services, c: Context, projectId: string): Promise<WebhookMessageRow> {
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

export function messageRoutes(route: SvixRoute, services: Services): void {
  route("POST", "/app/:app_id/msg", async (c, projectId) => {
    const body = await parsed(messageInSchema, c);
    const eventId = body.eventId ?? null;
    if (eventId) {
      const [existing] = await services.db
        .select({ id: webhookMessages.id })
        .from(webhookMessages)
        .where(and(eq(webhookMessages.projectId, projectId), eq(webhookMessages.eventId, eventId)));
      if (existing) throw conflict("A message with this eventId already exists.");
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
    c.json(messageJson(await messageOf(services, c, projectId), flag(c, "with_content", true))),
  );
}
