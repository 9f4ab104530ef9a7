/**
 * Two replicas running webhook deliveries from one PostgreSQL jobs table at the same time: each message reaches
 * each endpoint exactly once, and the log holds one attempt per (message, endpoint). PostgreSQL only (an embedded
 * database belongs to one process).
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createEndpoint } from "../src/capabilities/webhooks/domain/endpoints.ts";
import { webhookAttempts, webhookMessages, type WebhookEndpointRow } from "../src/capabilities/webhooks/schema.ts";
import { jobs } from "../src/db/schema/index.ts";
import { createProject, uniqueEmail, type Project } from "./fixtures.ts";
import { createTestServer, type TestServer } from "./harness.ts";
import { startWebhookReceiver, type WebhookReceiver } from "./webhook-receiver.ts";

const onPostgres = process.env.LATCHKEY_TEST_DB === "postgres";
const USERS = 30;

let a: TestServer;
let b: TestServer;
let project: Project;
const receivers: WebhookReceiver[] = [];
const endpoints: WebhookEndpointRow[] = [];

beforeAll(async () => {
  if (!onPostgres) return;
  a = await createTestServer();
  b = await createTestServer({}, { replicaOf: a });
  project = await createProject(a);
  for (let i = 0; i < 3; i++) {
    const receiver = await startWebhookReceiver();
    receivers.push(receiver);
    endpoints.push(await createEndpoint(a.instance.services, project.id, { url: receiver.url }));
  }
});
afterAll(async () => {
  await b?.close();
  await a?.close();
  await Promise.all(receivers.map((r) => r.close()));
});

it.runIf(onPostgres)(`two replicas deliver each of ${USERS} messages to each of 3 endpoints exactly once`, async () => {
  // Half the changes are made on each replica: both write messages and jobs, both runners hear of them.
  const created = await Promise.all(
    Array.from({ length: USERS }, async (_, i) => {
      const on = i % 2 === 0 ? a : b;
      const res = await on.request("/users", { method: "POST", as: project.server, body: { primary_email: uniqueEmail("replica") } });
      expect(res.status, res.text).toBe(201);
      return res.body.id as string;
    }),
  );
  const [byA, byB] = await Promise.all([a.instance.services.jobs.flush(), b.instance.services.jobs.flush()]);
  await Promise.all(receivers.map((r) => r.request(USERS)));
  // No job was run twice (the runners woken by the commits may have run some of them before the flushes).
  expect(byA + byB).toBeLessThanOrEqual(USERS * endpoints.length);

  const messages = await a.instance.services.db.select().from(webhookMessages).where(eq(webhookMessages.projectId, project.id));
  expect(messages).toHaveLength(USERS);
  expect(new Set(messages.map((m) => (m.payload as { data: { id: string } }).data.id))).toEqual(new Set(created));
  const messageIds = messages.map((m) => m.id).sort();
  for (const receiver of receivers) {
    const ids = receiver.received.map((r) => String(r.headers["webhook-id"]));
    expect(ids).toHaveLength(USERS);
    expect([...ids].sort()).toEqual(messageIds);
  }
  const attempts = await a.instance.services.db.select().from(webhookAttempts).where(eq(webhookAttempts.projectId, project.id));
  expect(attempts).toHaveLength(USERS * endpoints.length);
  expect(new Set(attempts.map((t) => `${t.messageId} ${t.endpointId}`)).size).toBe(USERS * endpoints.length);
  expect(attempts.every((t) => t.status === 0 && t.responseStatusCode === 204)).toBe(true);
  const deliveries = await a.instance.services.db.select().from(jobs).where(eq(jobs.projectId, project.id));
  const webhookJobs = deliveries.filter((j) => j.kind === "webhook.deliver");
  expect(webhookJobs).toHaveLength(USERS * endpoints.length);
  expect(webhookJobs.every((j) => j.status === "done" && j.attempts === 1)).toBe(true);

  // Nothing is left for either replica to send again.
  await Promise.all([a.instance.services.jobs.flush(), b.instance.services.jobs.flush()]);
  expect(receivers.map((r) => r.received.length)).toEqual(receivers.map(() => USERS));
});
