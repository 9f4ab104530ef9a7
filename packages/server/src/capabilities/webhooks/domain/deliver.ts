/**
 * Delivering one message to one endpoint: a `webhook.deliver` job, run by whichever replica claims it (jobs/
 * runner.ts), so each attempt is made once across replicas and endpoints are served in parallel. Every attempt is
 * logged. Any answer but a 2xx, or no answer, fails the attempt and the runner schedules the next on Svix's
 * published schedule (WEBHOOK_RETRY_POLICY); an answer of 410 Gone is the receiver's way of saying "stop trying
 * this message". An endpoint whose attempts have all failed for WEBHOOK_DISABLE_AFTER_MILLIS is disabled, and
 * the project's owners are told by e-mail. Messages are not ordered per endpoint: a retried one arrives after
 * later ones, and receivers order by the payload, not by arrival.
 */
import { INTERNAL_PROJECT_ID, DEFAULT_BRANCH_ID } from "@latchkey/shared";
import { and, eq, sql } from "drizzle-orm";
import { contactChannels, teamMembers } from "../../../db/schema/index.ts";
import { inTenancy } from "../../../db/tenancy.ts";
import { enqueueEmail } from "../../../domain/emails/queue.ts";
import type { EventTx } from "../../../events/transaction.ts";
import { FinalJobError, type JobContext, type JobKindDefinition, type RetryPolicy } from "../../../jobs/kinds.ts";
import type { Services } from "../../../services.ts";
import {
  ATTEMPT_STATUS,
  webhookAttempts,
  webhookEndpoints,
  webhookMessages,
  type WebhookEndpointRow,
  type WebhookMessageRow,
} from "../schema.ts";
import { signingSecrets } from "./endpoint-secrets.ts";
import { webhookId } from "./ids.ts";
import { sendWebhook, WEBHOOK_TIMEOUT_MILLIS, type SendOutcome } from "./send.ts";
import { signedHeaders } from "./signing.ts";

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** Immediately, then after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h: Svix's schedule, eight attempts in all. */
export const WEBHOOK_RETRY_POLICY: RetryPolicy = {
  maxAttempts: 8,
  backoffMillis: [5 * SECOND, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR, 10 * HOUR],
};
/** An endpoint whose every attempt failed for this long is disabled. */
export const WEBHOOK_DISABLE_AFTER_MILLIS = 5 * 24 * HOUR;
/** The answer with which a receiver stops the retries of one message. */
export const STOP_RETRIES_STATUS = 410;

export function webhookDeliveryJob(services: Services): JobKindDefinition<"webhook.deliver"> {
  return {
    kind: "webhook.deliver",
    retry: WEBHOOK_RETRY_POLICY,
    // Room for the receiver's whole allowance and the bookkeeping around it.
    leaseMillis: WEBHOOK_TIMEOUT_MILLIS + MINUTE,
    handler: (job) => deliver(services, job),
  };
}

async function deliver(services: Services, job: JobContext<"webhook.deliver">): Promise<void> {
  const { message_id: messageId, endpoint_id: endpointId, manual } = job.payload;
  const [found] = await services.db
    .select({ message: webhookMessages, endpoint: webhookEndpoints })
    .from(webhookMessages)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, endpointId))
    .where(eq(webhookMessages.id, messageId));
  // Gone with its project or endpoint; a disabled endpoint is sent nothing (a resend after enabling it is).
  if (!found || found.endpoint.disabled) return;
  const outcome = await attemptDelivery(services, found.message, found.endpoint, manual);
  if (outcome.succeeded) return;
  if (outcome.statusCode === STOP_RETRIES_STATUS)
    throw new FinalJobError(`The endpoint answered ${STOP_RETRIES_STATUS}: no more attempts.`);
  throw new Error(outcome.statusCode === 0 ? outcome.response : `The endpoint answered ${outcome.statusCode}.`);
}

/** One signed POST of `message` to `endpoint`, logged as an attempt (the job's, or a test send's made at once). */
export async function attemptDelivery(
  services: Services,
  message: WebhookMessageRow,
  endpoint: WebhookEndpointRow,
  manual: boolean,
): Promise<SendOutcome & { succeeded: boolean }> {
  const now = services.clock.date();
  const body = JSON.stringify(message.payload);
  const timestamp = Math.floor(now.getTime() / 1000);
  const outcome = await sendWebhook(
    endpoint.url,
    signedHeaders(signingSecrets(services, endpoint, now), message.id, timestamp, body),
    body,
    {
      allowPrivate: services.config.webhooksAllowPrivateUrls,
    },
  );
  const succeeded = outcome.statusCode >= 200 && outcome.statusCode < 300;
  await recordAttempt(services, endpoint, message.id, outcome, succeeded, manual);
  return { ...outcome, succeeded };
}

/** The attempt's log row, and the endpoint's failing streak: ended by a success, and past its limit, disabling it. */
async function recordAttempt(
  services: Services,
  endpoint: WebhookEndpointRow,
  messageId: string,
  outcome: SendOutcome,
  succeeded: boolean,
  manual: boolean,
): Promise<void> {
  const now = services.clock.date();
  const attempt = {
    id: webhookId("atmpt", now.getTime()),
    projectId: endpoint.projectId,
    messageId,
    endpointId: endpoint.id,
    url: endpoint.url,
    status: succeeded ? ATTEMPT_STATUS.succeeded : ATTEMPT_STATUS.failed,
    responseStatusCode: outcome.statusCode,
    response: outcome.response,
    responseDurationMs: outcome.durationMs,
    triggerType: manual ? 1 : 0,
    createdAt: now,
  };
  if (succeeded) {
    // The common case, kept to one write: a success ends a failing streak only where one had begun (as read when
    // the delivery began; a streak begun since is ended by the endpoint's next success).
    await services.db.insert(webhookAttempts).values(attempt);
    if (endpoint.failingSince !== null) {
      await services.db.update(webhookEndpoints).set({ failingSince: null }).where(eq(webhookEndpoints.id, endpoint.id));
    }
    return;
  }
  await services.events.transaction(services.db, async (tx) => {
    await tx.insert(webhookAttempts).values(attempt);
    const [streak] = await tx
      .update(webhookEndpoints)
      .set({ failingSince: sql`coalesce(${webhookEndpoints.failingSince}, ${now.toISOString()}::timestamptz)` })
      .where(eq(webhookEndpoints.id, endpoint.id))
      .returning({ failingSince: webhookEndpoints.failingSince, disabled: webhookEndpoints.disabled });
    if (!streak || streak.disabled || !streak.failingSince) return;
    if (now.getTime() - streak.failingSince.getTime() < WEBHOOK_DISABLE_AFTER_MILLIS) return;
    const [disabled] = await tx
      .update(webhookEndpoints)
      .set({ disabled: true, disabledReason: "failing", updatedAt: now })
      .where(and(eq(webhookEndpoints.id, endpoint.id), eq(webhookEndpoints.disabled, false)))
      .returning();
    if (disabled) await tellOwners(services, tx, disabled, now);
  });
}

/** Mails the project's owners (the members of its owner team in the dashboard's project) that the endpoint is off. */
async function tellOwners(services: Services, tx: EventTx, endpoint: WebhookEndpointRow, now: Date): Promise<void> {
  const project = await services.projects.get(endpoint.projectId);
  if (!project?.ownerTeamId) return;
  const internal = { projectId: INTERNAL_PROJECT_ID, branchId: DEFAULT_BRANCH_ID };
  const rows = await tx
    .select({ email: contactChannels.value })
    .from(teamMembers)
    .innerJoin(contactChannels, eq(contactChannels.userId, teamMembers.userId))
    .where(
      and(
        inTenancy(teamMembers, internal),
        eq(teamMembers.teamId, project.ownerTeamId),
        inTenancy(contactChannels, internal),
        eq(contactChannels.type, "email"),
        eq(contactChannels.isPrimary, true),
      ),
    );
  const text =
    `The webhook endpoint ${endpoint.url} of ${project.displayName} failed every delivery for five days, so it has been ` +
    `disabled and is sent nothing more. Messages stay in the log: once the receiver works again, enable the endpoint ` +
    `on the project's Webhooks page and recover what it missed.`;
  for (const email of new Set(rows.map((row) => row.email))) {
    await enqueueEmail(
      tx,
      INTERNAL_PROJECT_ID,
      { to: [email], subject: `Webhook endpoint disabled: ${endpoint.url}`, text, html: `<p>${escapeHtml(text)}</p>` },
      now,
    );
  }
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
