/**
 * Webhook messages are written in the transaction of the change they report (capability.ts subscribes this to
 * the events as they are recorded): a message exists exactly when its change committed, with the payload as it
 * was then, and one delivery job per endpoint that wants it. A rollback leaves neither; a crash after the
 * commit leaves both, for the job runner to deliver after the restart. A project with no endpoints gets no
 * messages: there is nobody to send them to.
 */
import { and, eq } from "drizzle-orm";
import { DEFAULT_BRANCH_ID, type Json } from "@latchkey/shared";
import { oncePerTransaction } from "../../../events/once-per-transaction.ts";
import type { EventTx } from "../../../events/transaction.ts";
import type { DomainEvent } from "../../../events/domain-events.ts";
import { findUser } from "../../../domain/users/record.ts";
import { serverUserView } from "../../../domain/users/views.ts";
import { findTeam } from "../../../domain/teams/cached.ts";
import { serverTeamView } from "../../../domain/teams/views.ts";
import { enqueueJobs } from "../../../jobs/store.ts";
import type { Services } from "../../../services.ts";
import { webhookEndpoints, webhookMessages, type WebhookEndpointRow, type WebhookMessageRow } from "../schema.ts";
import { webhookId } from "./ids.ts";

/** The endpoints a project has, read once per transaction that records webhook events for it. */
const endpointsOnce = oncePerTransaction<WebhookEndpointRow[]>();

function projectEndpoints(tx: EventTx, projectId: string): Promise<WebhookEndpointRow[]> {
  return endpointsOnce(tx, projectId, async () =>
    tx
      .select()
      .from(webhookEndpoints)
      .where(and(eq(webhookEndpoints.projectId, projectId), eq(webhookEndpoints.disabled, false))),
  );
}

/** Whether an endpoint takes messages of `type` (no filter: every type). */
export function wantsType(endpoint: Pick<WebhookEndpointRow, "filterTypes">, type: string): boolean {
  return endpoint.filterTypes === null || endpoint.filterTypes.length === 0 || endpoint.filterTypes.includes(type);
}

/**
 * In the change's transaction: a message per webhook event, and a delivery job per endpoint that wants it — all
 * of the change's messages in one insert, and their jobs in another, since this runs inside every change of a
 * project with endpoints (a sign-up records several events).
 */
export async function recordWebhookMessages(services: Services, tx: EventTx, events: readonly DomainEvent[]): Promise<void> {
  const messages: NewMessage[] = [];
  for (const event of events) {
    const endpoints = await projectEndpoints(tx, event.projectId);
    if (endpoints.length === 0) continue;
    const data = await webhookEventData(services, tx, event);
    if (data === null) continue;
    messages.push({ projectId: event.projectId, eventType: event.type, payload: { type: event.type, data }, endpoints });
  }
  await createMessages(services, tx, messages);
}

interface NewMessage {
  projectId: string;
  eventType: string;
  payload: Json;
  /** The project's endpoints; those that want the type get a delivery job. */
  endpoints: readonly WebhookEndpointRow[];
  eventId?: string | null;
}

/**
 * A message of `eventType` and its delivery jobs, for `endpoints` (those that want the type). The server's own
 * events send `{type, data}`; a message made through the Svix-compatible API sends the payload its caller gave.
 */
export async function createMessage(
  services: Services,
  tx: EventTx,
  projectId: string,
  eventType: string,
  payload: Json,
  endpoints: readonly WebhookEndpointRow[],
  eventId: string | null = null,
): Promise<WebhookMessageRow> {
  return (await createMessages(services, tx, [{ projectId, eventType, payload, endpoints, eventId }]))[0]!;
}

async function createMessages(services: Services, tx: EventTx, messages: readonly NewMessage[]): Promise<WebhookMessageRow[]> {
  if (messages.length === 0) return [];
  const now = services.clock.date();
  const values = messages.map((message) => ({
    id: webhookId("msg", now.getTime()),
    projectId: message.projectId,
    eventType: message.eventType,
    eventId: message.eventId ?? null,
    payload: message.payload,
    createdAt: now,
  }));
  const rows = await tx.insert(webhookMessages).values(values).returning();
  await enqueueJobs(
    tx,
    values.flatMap((value, i) =>
      messages[i]!.endpoints.filter((endpoint) => wantsType(endpoint, value.eventType)).map((endpoint) => ({
        kind: "webhook.deliver" as const,
        payload: { message_id: value.id, endpoint_id: endpoint.id, manual: false },
        tenancy: { projectId: value.projectId, branchId: null },
      })),
    ),
    now,
  );
  // In the order asked for, whatever order the insert answers in.
  const byId = new Map(rows.map((row) => [row.id, row]));
  return values.map((value) => byId.get(value.id)!);
}

/**
 * What a webhook event's `data` holds: users and teams as the server API shows them, at this commit; the rest
 * as recorded. Null for events that are not sent as webhooks (the server's own bookkeeping), or whose subject
 * is already gone in this transaction. Workflows get the same (capabilities/workflows/domain/runs.ts).
 */
export async function webhookEventData(services: Services, tx: EventTx, event: DomainEvent): Promise<Json | null> {
  const scope = { projectId: event.projectId, branchId: event.branchId ?? DEFAULT_BRANCH_ID };
  switch (event.type) {
    case "user.created":
    case "user.updated": {
      const project = await services.projects.get(event.projectId);
      const user = project && (await findUser(tx, scope.projectId, scope.branchId, event.data.id));
      return project && user ? (serverUserView(user, project.config) as unknown as Json) : null;
    }
    case "team.created":
    case "team.updated": {
      const team = await findTeam(tx, scope, event.data.id);
      return team ? (serverTeamView(team) as unknown as Json) : null;
    }
    case "user.deleted":
      return { id: event.data.id, teams: event.data.teams };
    case "team.deleted":
      return { id: event.data.id };
    case "team_membership.created":
    case "team_membership.deleted":
      return { team_id: event.data.team_id, user_id: event.data.user_id };
    case "team_permission.created":
    case "team_permission.deleted":
      return { id: event.data.id, team_id: event.data.team_id, user_id: event.data.user_id };
    case "project_permission.created":
    case "project_permission.deleted":
      return { id: event.data.id, user_id: event.data.user_id };
    case "session.created":
    case "session.revoked":
    case "contact_channel.verified":
      return { id: event.data.id, user_id: event.data.user_id };
    case "team_invitation.created":
      return { id: event.data.id, team_id: event.data.team_id };
    case "team_invitation.accepted":
      return { team_id: event.data.team_id, user_id: event.data.user_id };
    case "api_key.created":
    case "api_key.revoked":
      return { ...event.data };
    default:
      return null;
  }
}
