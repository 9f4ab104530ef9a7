/**
 * The server's own webhook messages are made after the change commits, from the outbox. An event of a project
 * with endpoints is written pending (its insert asks, capability.ts: `outboxPending`), so a change pays no
 * statement for its webhooks; the fan-out takes pending events in batches, writes their messages and delivery
 * jobs, and clears them, all in one transaction. An event is therefore sent exactly when its change committed,
 * whatever crashes between the commit and the fan-out (the pending rows wait for the next process), and a
 * rolled-back change leaves nothing pending. Replicas fanning out at once take different rows (SKIP LOCKED).
 *
 * Users and teams are rendered when the fan-out reads them, a moment after the change (a quarter of a second
 * under load, at most the runner's longest sleep after a crash): a user changed twice in that moment is sent
 * twice as it is after the second change, and a user created and deleted in it is sent as deleted only.
 */
import { asc, eq, inArray, sql } from "drizzle-orm";
import type { Json } from "@latchkey/shared";
import { outboxEvents } from "../../../db/schema/index.ts";
import type { DomainEvent } from "../../../events/domain-events.ts";
import type { EventTx } from "../../../events/transaction.ts";
import type { JobFeeder } from "../../../jobs/kinds.ts";
import type { Services } from "../../../services.ts";
import { webhookEndpoints, type WebhookEndpointRow } from "../schema.ts";
import { createMessages, webhookEventsData, type NewMessage } from "./messages.ts";

/** Events taken per transaction: large enough that a burst of sign-ups costs a few statements per batch. */
const BATCH = 500;

/**
 * The condition an event's outbox insert evaluates: whether its project has an endpoint to send it to. An
 * endpoint added while the change is being made is seen or not as the insert's statement sees it.
 */
export function pendingForWebhooks(event: DomainEvent) {
  // tenancy: endpoints belong to the project as a whole, named by the event
  return sql`exists (select 1 from ${webhookEndpoints} where ${webhookEndpoints.projectId} = ${event.projectId} and not ${webhookEndpoints.disabled})`;
}

/** The fan-out as the job runner runs it, before it claims jobs (JobRunner.addFeeder). */
export function webhookFanOut(services: Services): JobFeeder {
  return { name: "webhook.fan_out", feed: () => fanOutPendingEvents(services) };
}

/** Fans out pending events until none is left; returns how many it took. */
export async function fanOutPendingEvents(services: Services): Promise<number> {
  let taken = 0;
  for (;;) {
    const batch = await fanOutBatch(services);
    taken += batch;
    if (batch < BATCH) return taken;
  }
}

async function fanOutBatch(services: Services): Promise<number> {
  return services.events.transaction(services.db, async (tx) => {
    // tenancy: the fan-out serves every project's pending events
    const rows = await tx
      .select()
      .from(outboxEvents)
      .where(eq(outboxEvents.pending, true))
      .orderBy(asc(outboxEvents.id))
      .limit(BATCH)
      .for("update", { skipLocked: true });
    if (rows.length === 0) return 0;
    const events = rows.map(
      (row) => ({ type: row.type, projectId: row.projectId, branchId: row.branchId, data: row.payload }) as DomainEvent,
    );
    const endpoints = await enabledEndpoints(tx, [...new Set(events.map((event) => event.projectId))]);
    const sent = events.filter((event) => (endpoints.get(event.projectId)?.length ?? 0) > 0);
    const data = await webhookEventsData(services, tx, sent);
    const messages: NewMessage[] = [];
    sent.forEach((event, i) => {
      if (data[i] === null) return;
      messages.push({
        projectId: event.projectId,
        eventType: event.type,
        payload: { type: event.type, data: data[i]! } as Json,
        endpoints: endpoints.get(event.projectId)!,
      });
    });
    await createMessages(services, tx, messages);
    // tenancy: the rows this transaction took, of whichever projects
    await tx
      .update(outboxEvents)
      .set({ pending: false })
      .where(
        inArray(
          outboxEvents.id,
          rows.map((row) => row.id),
        ),
      );
    return rows.length;
  });
}

async function enabledEndpoints(tx: EventTx, projectIds: string[]): Promise<Map<string, WebhookEndpointRow[]>> {
  const rows = await tx
    .select()
    .from(webhookEndpoints)
    // tenancy: the endpoints of the projects whose events this batch took
    .where(sql`${inArray(webhookEndpoints.projectId, projectIds)} and not ${webhookEndpoints.disabled}`);
  const byProject = new Map<string, WebhookEndpointRow[]>();
  for (const row of rows) byProject.set(row.projectId, [...(byProject.get(row.projectId) ?? []), row]);
  return byProject;
}
