/**
 * Delivery attempts in the Svix-compatible API (app.ts): listed by endpoint and by message; and sending again, one
 * message to an endpoint (resend) or every message whose delivery to an endpoint failed since a time (recover).
 * Both are delivered by the job runner as manual attempts.
 */
import { and, asc, desc, eq, gte, lt, lte, type SQL } from "drizzle-orm";
import type { Context } from "hono";
import { z } from "zod";
import { enqueueJob } from "../../../jobs/store.ts";
import { randomCode } from "../../../lib/secrets.ts";
import type { Services } from "../../../services.ts";
import { ATTEMPT_STATUS, webhookAttempts, webhookMessages, type WebhookAttemptRow, type WebhookEndpointRow } from "../schema.ts";
import { endpointOf } from "./endpoints.ts";
import { messageJson, messageOf } from "./messages.ts";
import { flag, listQuery, page, parsed, type SvixRoute } from "./router.ts";

const recoverSchema = z.object({ since: z.coerce.date(), until: z.coerce.date().nullish() });

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

export function attemptRoutes(route: SvixRoute, services: Services): void {
  /** Delivering each of `messageIds` to `endpoint` again, by the job runner, as a manual attempt. */
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
    const endpoint = await endpointOf(services, c, projectId);
    return attempts(c, projectId, eq(webhookAttempts.endpointId, endpoint.id));
  });
  route("GET", "/app/:app_id/attempt/msg/:msg_id", async (c, projectId) => {
    const message = await messageOf(services, c, projectId);
    const endpointId = c.req.query("endpoint_id");
    const by = eq(webhookAttempts.messageId, message.id);
    return attempts(c, projectId, endpointId ? and(by, eq(webhookAttempts.endpointId, endpointId))! : by);
  });

  route("POST", "/app/:app_id/msg/:msg_id/endpoint/:endpoint_id/resend", async (c, projectId) => {
    const message = await messageOf(services, c, projectId);
    const endpoint = await endpointOf(services, c, projectId);
    await resend(projectId, [message.id], endpoint);
    return c.json({}, 202);
  });
  // Every message since `since` (until `until`) whose latest attempt at this endpoint failed is sent again.
  route("POST", "/app/:app_id/endpoint/:endpoint_id/recover", async (c, projectId) => {
    const endpoint = await endpointOf(services, c, projectId);
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
}
