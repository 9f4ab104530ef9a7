/**
 * A webhook message and its delivery jobs, one per endpoint that wants its type, written in one transaction:
 * by the fan-out for the server's own events (fan-out.ts), by the Svix-compatible API for a caller's own
 * message. A project with no endpoints gets no messages: there is nobody to send them to.
 */
import { and, inArray } from "drizzle-orm";
import { DEFAULT_BRANCH_ID, type Json } from "@latchkey/shared";
import type { EventTx } from "../../../events/transaction.ts";
import type { DomainEvent } from "../../../events/domain-events.ts";
import { teams, type TeamRow } from "../../../db/schema/index.ts";
import { inTenancy, type Tenancy } from "../../../db/tenancy.ts";
import { toUserRecord, userRecordQuery, type UserRecord } from "../../../domain/users/record.ts";
import { users } from "../../../db/schema/index.ts";
import { serverUserView } from "../../../domain/users/views.ts";
import { serverTeamView } from "../../../domain/teams/views.ts";
import { enqueueJobs } from "../../../jobs/store.ts";
import type { Services } from "../../../services.ts";
import { webhookMessages, type WebhookEndpointRow, type WebhookMessageRow } from "../schema.ts";
import { webhookId } from "./ids.ts";

/** Whether an endpoint takes messages of `type` (no filter: every type). */
export function wantsType(endpoint: Pick<WebhookEndpointRow, "filterTypes">, type: string): boolean {
  return endpoint.filterTypes === null || endpoint.filterTypes.length === 0 || endpoint.filterTypes.includes(type);
}

export interface NewMessage {
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

export async function createMessages(services: Services, tx: EventTx, messages: readonly NewMessage[]): Promise<WebhookMessageRow[]> {
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
 * What a webhook event's `data` holds: users and teams as the server API shows them when it is read; the rest as
 * recorded. Null for events that are not sent as webhooks (the server's own bookkeeping), or whose subject is
 * gone by then. Workflows get the same (capabilities/workflows/domain/runs.ts).
 */
export async function webhookEventData(services: Services, tx: EventTx, event: DomainEvent): Promise<Json | null> {
  return (await webhookEventsData(services, tx, [event]))[0]!;
}

/** The `data` of each event, in order: the users and teams they name read in one query per tenancy. */
export async function webhookEventsData(services: Services, tx: EventTx, events: readonly DomainEvent[]): Promise<(Json | null)[]> {
  const subjects = await readSubjects(tx, events);
  const data: (Json | null)[] = [];
  for (const event of events) data.push(await eventData(services, subjects, event));
  return data;
}

interface Subjects {
  users: Map<string, UserRecord>;
  teams: Map<string, TeamRow>;
}

function tenancyOfEvent(event: DomainEvent): Tenancy {
  return { projectId: event.projectId, branchId: event.branchId ?? DEFAULT_BRANCH_ID };
}

async function readSubjects(tx: EventTx, events: readonly DomainEvent[]): Promise<Subjects> {
  const wanted = new Map<string, { scope: Tenancy; users: string[]; teams: string[] }>();
  const want = (event: DomainEvent, kind: "users" | "teams", id: string) => {
    const scope = tenancyOfEvent(event);
    const key = `${scope.projectId}:${scope.branchId}`;
    let entry = wanted.get(key);
    if (!entry) wanted.set(key, (entry = { scope, users: [], teams: [] }));
    entry[kind].push(id);
  };
  for (const event of events) {
    if (event.type === "user.created" || event.type === "user.updated") want(event, "users", event.data.id);
    if (event.type === "team.created" || event.type === "team.updated") want(event, "teams", event.data.id);
  }
  const subjects: Subjects = { users: new Map(), teams: new Map() };
  for (const { scope, users: userIds, teams: teamIds } of wanted.values()) {
    if (userIds.length > 0) {
      const rows = await userRecordQuery(tx).where(and(inTenancy(users, scope), inArray(users.id, [...new Set(userIds)])));
      for (const row of rows) subjects.users.set(row.user.id, toUserRecord(row));
    }
    if (teamIds.length > 0) {
      const rows = await tx
        .select()
        .from(teams)
        .where(and(inTenancy(teams, scope), inArray(teams.id, [...new Set(teamIds)])));
      for (const row of rows) subjects.teams.set(row.id, row);
    }
  }
  return subjects;
}

async function eventData(services: Services, subjects: Subjects, event: DomainEvent): Promise<Json | null> {
  switch (event.type) {
    case "user.created":
    case "user.updated": {
      const project = await services.projects.get(event.projectId);
      const user = subjects.users.get(event.data.id);
      return project && user ? (serverUserView(user, project.config) as unknown as Json) : null;
    }
    case "team.created":
    case "team.updated": {
      const team = subjects.teams.get(event.data.id);
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
