/**
 * Webhook delivery (capabilities/webhooks): a message per event written with the change, signed per Standard
 * Webhooks (checked with the `standardwebhooks` package), retried on Svix's schedule as the injected clock moves,
 * stopped by a 410, an endpoint disabled after five failing days with its owners mailed, private addresses
 * refused unless allowed, and a rotated secret honoured during its grace period.
 */
import { and, asc, desc, eq } from "drizzle-orm";
import { randomUUID } from "node:crypto";
import { webhookEventDataSchemas } from "@latchkey/shared";
import { Webhook } from "standardwebhooks";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import {
  createEndpoint,
  endpointSecret,
  PREVIOUS_SECRET_GRACE_MILLIS,
  rotateEndpointSecret,
} from "../src/capabilities/webhooks/domain/endpoints.ts";
import { WEBHOOK_DISABLE_AFTER_MILLIS, WEBHOOK_RETRY_POLICY } from "../src/capabilities/webhooks/domain/deliver.ts";
import { deleteOldWebhookMessages, WEBHOOK_MESSAGES_KEPT_MILLIS } from "../src/capabilities/webhooks/domain/retention.ts";
import { webhookAttempts, webhookEndpoints, webhookMessages, type WebhookEndpointRow } from "../src/capabilities/webhooks/schema.ts";
import { jobs, outboxEvents, sentEmails } from "../src/db/schema/index.ts";
import { record } from "../src/events/transaction.ts";
import type { Services } from "../src/services.ts";
import { serverWithProject, uniqueEmail, type Project } from "./fixtures.ts";
import type { TestServer } from "./harness.ts";
import { startWebhookReceiver, type ReceivedWebhook, type WebhookReceiver } from "./webhook-receiver.ts";

let server: TestServer;
let project: Project;
let receiver: WebhookReceiver;
let endpoint: WebhookEndpointRow;

beforeAll(async () => {
  ({ server, project } = await serverWithProject());
});
afterAll(() => server?.close());

/** Each test gets its own receiver and endpoint; the last test's endpoint is gone. */
async function freshEndpoint(fields: Partial<Parameters<typeof createEndpoint>[2]> = {}, on: Project = project) {
  await server.instance.services.db.delete(webhookEndpoints).where(eq(webhookEndpoints.projectId, on.id));
  receiver = await startWebhookReceiver();
  endpoint = await createEndpoint(server.instance.services, on.id, { url: receiver.url, ...fields });
  return endpoint;
}
afterEach(() => receiver?.close());

const services = () => server.instance.services;
const flush = () => services().jobs.flush();

async function createUser(email = uniqueEmail()) {
  const res = await server.request("/users", { method: "POST", as: project.server, body: { primary_email: email } });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string; primary_email: string };
}

/** Moves the clock by each delay in turn, running `each` after each step, and back at the end (the test's keys expire in a day). */
async function throughSchedule(on: TestServer, delays: readonly number[], each: () => Promise<unknown>): Promise<void> {
  const [first, ...rest] = delays;
  if (first === undefined) return;
  await on.clock.ahead(first, async () => {
    await each();
    await throughSchedule(on, rest, each);
  });
}

/** A change's event recorded as domain code records it (for when the clock has outrun the test's keys and tokens). */
function recordTeamDeleted(on: Services, projectId: string) {
  return on.events.transaction(on.db, (tx) =>
    record(tx, { type: "team.deleted", projectId, branchId: "main", data: { id: randomUUID() } }),
  );
}

async function attemptsOf(endpointId: string) {
  return services()
    .db.select()
    .from(webhookAttempts)
    .where(eq(webhookAttempts.endpointId, endpointId))
    .orderBy(asc(webhookAttempts.createdAt));
}

/** Verified as a receiver would, at the time of the test's world (the package checks the timestamp against its now). */
function verify(
  request: ReceivedWebhook,
  secret: string,
  headers: Record<string, unknown> = request.headers,
): { type: string; data: Record<string, unknown> } {
  const now = vi.spyOn(Date, "now").mockReturnValue(server.clock.now());
  try {
    const plain = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, String(v)]));
    return new Webhook(secret).verify(request.body, plain) as { type: string; data: Record<string, unknown> };
  } finally {
    now.mockRestore();
  }
}

describe("a change's message", () => {
  it("is delivered signed, with the payload the server API shows, under webhook-* and svix-* names", async () => {
    await freshEndpoint();
    const user = await createUser();
    await flush();
    const request = await receiver.request(1);
    const event = verify(request, endpointSecret(services(), endpoint));
    expect(event.type).toBe("user.created");
    const read = await server.request(`/users/${user.id}`, { as: project.server });
    expect(event.data).toEqual(read.body);
    // The shape @latchkey/shared publishes for it (what verifyWebhook's types promise).
    expect(() => webhookEventDataSchemas["user.created"].parse(event.data)).not.toThrow();
    expect(request.headers["svix-id"]).toBe(request.headers["webhook-id"]);
    expect(request.headers["svix-timestamp"]).toBe(request.headers["webhook-timestamp"]);
    expect(request.headers["svix-signature"]).toBe(request.headers["webhook-signature"]);
    expect(request.headers["webhook-id"]).toMatch(/^msg_[0-9A-Za-z]{27}$/);
    // The time it was sent, in seconds, by the server's clock (a second or so before this line).
    const sentAt = Number(request.headers["webhook-timestamp"]);
    expect(server.clock.now() / 1000 - sentAt).toBeGreaterThanOrEqual(0);
    expect(server.clock.now() / 1000 - sentAt).toBeLessThan(30);
    // A Svix-style verification: the same headers under the svix names, as receivers written for the reference read them.
    const svixHeaders = {
      "webhook-id": request.headers["svix-id"],
      "webhook-timestamp": request.headers["svix-timestamp"],
      "webhook-signature": request.headers["svix-signature"],
    };
    expect(verify(request, endpointSecret(services(), endpoint), svixHeaders).type).toBe("user.created");
    const [attempt] = await attemptsOf(endpoint.id);
    expect(attempt).toMatchObject({ status: 0, responseStatusCode: 204, url: receiver.url, triggerType: 0 });
  });

  it("is written only when the change commits: a refused sign-up sends nothing", async () => {
    await freshEndpoint();
    const signUp = { primary_email: uniqueEmail(), primary_email_auth_enabled: true };
    expect((await server.request("/users", { method: "POST", as: project.server, body: signUp })).status).toBe(201);
    await flush();
    const again = await server.request("/users", { method: "POST", as: project.server, body: signUp });
    const messagesBefore = await services().db.select().from(webhookMessages).where(eq(webhookMessages.projectId, project.id));
    expect(again.status).toBe(409);
    await flush();
    const messagesAfter = await services().db.select().from(webhookMessages).where(eq(webhookMessages.projectId, project.id));
    expect(messagesAfter).toHaveLength(messagesBefore.length);
    expect(receiver.received.map((r) => JSON.parse(r.body).type)).toEqual(["user.created"]);
  });

  it("goes only to endpoints whose filter takes its type", async () => {
    await freshEndpoint({ filterTypes: ["team.created"] });
    await createUser();
    const team = await server.request("/teams", { method: "POST", as: project.server, body: { display_name: "Filtered" } });
    expect(team.status, team.text).toBe(201);
    await flush();
    expect(receiver.received.map((r) => JSON.parse(r.body).type)).toEqual(["team.created"]);
    expect(JSON.parse(receiver.received[0]!.body).data).toMatchObject({ id: team.body.id, display_name: "Filtered" });
  });

  it("waits in the outbox only where an endpoint takes it: a project without endpoints leaves nothing pending", async () => {
    await freshEndpoint();
    const pendingOf = async (id: string) =>
      (await services().db.select({ pending: outboxEvents.pending, payload: outboxEvents.payload }).from(outboxEvents)).filter(
        (row) => (row.payload as { id?: string }).id === id,
      );
    const user = await createUser();
    await flush();
    expect((await pendingOf(user.id)).map((row) => row.pending)).toEqual([false]);
    // Without an endpoint (none enabled counts as none), the same write leaves its event settled at once.
    await services().db.update(webhookEndpoints).set({ disabled: true }).where(eq(webhookEndpoints.projectId, project.id));
    const unsent = await createUser();
    expect((await pendingOf(unsent.id)).map((row) => row.pending)).toEqual([false]);
    await flush();
    expect(receiver.received.map((r) => JSON.parse(r.body).data.id)).toEqual([user.id]);
  });
});

describe("retries", () => {
  it("follow the schedule as the clock moves: two failures, then the third attempt succeeds", async () => {
    await freshEndpoint();
    receiver.answer(500, 503);
    await createUser();
    await flush();
    expect(receiver.received).toHaveLength(1);
    // Not due before its time.
    server.clock.advance(WEBHOOK_RETRY_POLICY.backoffMillis[0]! - 1000);
    await flush();
    expect(receiver.received).toHaveLength(1);
    server.clock.advance(1000);
    await flush();
    expect(receiver.received).toHaveLength(2);
    server.clock.advance(WEBHOOK_RETRY_POLICY.backoffMillis[1]!);
    await flush();
    const third = await receiver.request(3);
    // Each attempt is signed afresh, with the same message id.
    expect(verify(third, endpointSecret(services(), endpoint)).type).toBe("user.created");
    expect(new Set(receiver.received.map((r) => r.headers["webhook-id"])).size).toBe(1);
    expect((await attemptsOf(endpoint.id)).map((a) => [a.status, a.responseStatusCode])).toEqual([
      [2, 500],
      [2, 503],
      [0, 204],
    ]);
    const [endpointAfter] = await services().db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, endpoint.id));
    expect(endpointAfter!.failingSince).toBeNull();
  });

  it("stop when the receiver answers 410 Gone", async () => {
    await freshEndpoint();
    receiver.answer(410);
    await createUser();
    await flush();
    await throughSchedule(server, WEBHOOK_RETRY_POLICY.backoffMillis, flush);
    expect(receiver.received).toHaveLength(1);
    const [job] = await services()
      .db.select()
      .from(jobs)
      .where(and(eq(jobs.projectId, project.id), eq(jobs.kind, "webhook.deliver")))
      .orderBy(asc(jobs.createdAt));
    expect(job).toBeDefined();
    const failed = await services()
      .db.select()
      .from(jobs)
      .where(and(eq(jobs.projectId, project.id), eq(jobs.status, "failed")));
    expect(failed.length).toBeGreaterThan(0);
  });

  it("end with the endpoint disabled after five failing days, its owners mailed and its messages kept", async () => {
    const own = await serverWithProject();
    const ownServices = own.server.instance.services;
    try {
      const deadReceiver = await startWebhookReceiver();
      const dead = await createEndpoint(ownServices, own.project.id, { url: deadReceiver.url });
      await deadReceiver.close(); // Refuses every connection from now on.
      // Days later the project's test keys have expired: the events are recorded as a write would record them.
      const create = () => recordTeamDeleted(ownServices, own.project.id);
      await create();
      await ownServices.jobs.flush();
      for (const delay of WEBHOOK_RETRY_POLICY.backoffMillis) {
        own.server.clock.advance(delay);
        await ownServices.jobs.flush();
      }
      const [stillOn] = await ownServices.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, dead.id));
      expect(stillOn!.disabled).toBe(false);
      expect(stillOn!.failingSince).not.toBeNull();
      own.server.clock.advance(WEBHOOK_DISABLE_AFTER_MILLIS);
      await create();
      await ownServices.jobs.flush();
      const [off] = await ownServices.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, dead.id));
      expect(off).toMatchObject({ disabled: true, disabledReason: "failing" });
      const attempts = await ownServices.db.select().from(webhookAttempts).where(eq(webhookAttempts.endpointId, dead.id));
      expect(attempts.length).toBe(WEBHOOK_RETRY_POLICY.maxAttempts + 1);
      expect(attempts.every((a) => a.status === 2 && a.responseStatusCode === 0)).toBe(true);
      expect(attempts[0]!.response).toBe("The endpoint refused the connection.");
      const mail = await ownServices.db.select().from(sentEmails).where(eq(sentEmails.projectId, "internal"));
      const told = mail.filter((m) => m.subject === `Webhook endpoint disabled: ${deadReceiver.url}`);
      expect(told.map((m) => m.to)).toEqual([[own.project.owner.email]]);
      // Nothing lost from the log; a disabled endpoint is sent nothing more.
      expect(await ownServices.db.select().from(webhookMessages).where(eq(webhookMessages.projectId, own.project.id))).toHaveLength(2);
      await create();
      await ownServices.jobs.flush();
      expect(await ownServices.db.select().from(webhookAttempts).where(eq(webhookAttempts.endpointId, dead.id))).toHaveLength(
        attempts.length,
      );
    } finally {
      await own.server.close();
    }
  });
});

describe("where a webhook may go", () => {
  it("not to a private address unless the operator allows it", async () => {
    const strict = await serverWithProject({ server: { webhooksAllowPrivateUrls: false } });
    try {
      const local = await startWebhookReceiver();
      const onLoopback = await createEndpoint(strict.server.instance.services, strict.project.id, { url: local.url });
      const byName = await createEndpoint(strict.server.instance.services, strict.project.id, {
        url: local.url.replace("127.0.0.1", "localhost"),
      });
      const res = await strict.server.request("/users", {
        method: "POST",
        as: strict.project.server,
        body: { primary_email: uniqueEmail() },
      });
      expect(res.status).toBe(201);
      await strict.server.instance.services.jobs.flush();
      expect(local.received).toHaveLength(0);
      for (const id of [onLoopback.id, byName.id]) {
        const [attempt] = await strict.server.instance.services.db.select().from(webhookAttempts).where(eq(webhookAttempts.endpointId, id));
        expect(attempt).toMatchObject({ status: 2, responseStatusCode: 0 });
        expect(attempt!.response).toMatch(/is on a private or local network, which this server does not send webhooks to\.$/);
      }
      await local.close();
    } finally {
      await strict.server.close();
    }
  });
});

describe("a rotated secret", () => {
  it("still verifies during its grace period, beside the new one, and not after", async () => {
    await freshEndpoint();
    const old = endpointSecret(services(), endpoint);
    const rotated = await rotateEndpointSecret(services(), endpoint);
    const fresh = endpointSecret(services(), rotated);
    expect(fresh).not.toBe(old);
    expect(fresh).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    await createUser();
    await flush();
    const first = await receiver.request(1);
    expect(String(first.headers["webhook-signature"]).split(" ")).toHaveLength(2);
    expect(verify(first, old).type).toBe("user.created");
    expect(verify(first, fresh).type).toBe("user.created");

    server.clock.advance(PREVIOUS_SECRET_GRACE_MILLIS + 1000);
    await recordTeamDeleted(services(), project.id);
    await flush();
    const second = await receiver.request(2);
    expect(String(second.headers["webhook-signature"]).split(" ")).toHaveLength(1);
    expect(verify(second, fresh).type).toBe("team.deleted");
    expect(() => verify(second, old)).toThrow();
  });
});

describe("the message log", () => {
  it("is kept for 90 days, then swept with its attempts", async () => {
    await freshEndpoint();
    await recordTeamDeleted(services(), project.id);
    await flush();
    const [message] = await services()
      .db.select()
      .from(webhookMessages)
      .where(eq(webhookMessages.projectId, project.id))
      .orderBy(desc(webhookMessages.createdAt))
      .limit(1);
    expect(await attemptsOf(endpoint.id)).toHaveLength(1);
    const at = (millis: number) => new Date(message!.createdAt.getTime() + millis);
    const kept = () => services().db.select().from(webhookMessages).where(eq(webhookMessages.id, message!.id));
    // Sweeps go on until a batch comes back empty; older messages of this file's other tests go first.
    while ((await deleteOldWebhookMessages(services().db, at(WEBHOOK_MESSAGES_KEPT_MILLIS - 1000))) > 0);
    expect(await kept()).toHaveLength(1);
    while ((await deleteOldWebhookMessages(services().db, at(WEBHOOK_MESSAGES_KEPT_MILLIS + 1000))) > 0);
    expect(await kept()).toEqual([]);
    expect(await attemptsOf(endpoint.id)).toEqual([]);
  });
});
