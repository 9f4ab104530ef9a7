/**
 * A webhook survives its server's kill -9 between the commit of the change and the delivery: with real server
 * processes, the receiver holds the first request unanswered while the process is killed; the next start, on the
 * same database, takes the job over once its claim has expired and delivers it, and the message log shows the one
 * attempt that got an answer. The endpoint is written with SQL while no process runs (the embedded database
 * belongs to one process at a time). On PGlite the restarted process holds the data directory's lock, so it runs
 * out the dead one's claim at start (jobs/runner.ts); on PostgreSQL it waits out the claim (the delivery job's
 * lease, 75 s of real time), as a replica taking over a lost one's job does: slow by design.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { afterAll, expect, it } from "vitest";
import { sealEndpointSecret } from "../src/capabilities/webhooks/domain/endpoint-secrets.ts";
import { webhookId } from "../src/capabilities/webhooks/domain/ids.ts";
import { newEndpointSecret } from "../src/capabilities/webhooks/domain/signing.ts";
import { webhookAttempts, webhookEndpoints, webhookMessages } from "../src/capabilities/webhooks/schema.ts";
import { connectDatabase, type Database } from "../src/db/connect.ts";
import { jobs, outboxEvents } from "../src/db/schema/index.ts";
import { startWebhookReceiver } from "./webhook-receiver.ts";
import {
  freePort,
  migratedDataDir,
  postgresDatabase,
  PROCESS_TIMEOUT,
  signUpToInternal,
  startProcess,
  tempDir,
} from "./process-fixtures.ts";

const onPostgres = process.env.LATCHKEY_TEST_DB === "postgres";
/** With DATABASE_URL the process is in production mode: a log line instead of the development banner. */
const SERVING = onPostgres ? "Latchkey is serving" : "Internal project";
/** What the runner logs when it runs out the claims a previous process left (jobs/runner.ts). */
const TOOK_OVER = "took over the jobs a previous process left running";

interface HeldRequest {
  headers: IncomingHttpHeaders;
  body: string;
  answered: boolean;
}

/**
 * A receiver that takes the first request and never answers it (the server is killed while it waits), and answers
 * every later one 204.
 */
async function startHoldingReceiver() {
  const requests: HeldRequest[] = [];
  const held: ServerResponse[] = [];
  const waiters: { test: () => boolean; resolve: () => void }[] = [];
  const changed = () => {
    for (const waiter of waiters.filter((w) => w.test())) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve();
    }
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const request: HeldRequest = { headers: req.headers, body: Buffer.concat(chunks).toString("utf8"), answered: false };
      requests.push(request);
      if (requests.length === 1) held.push(res);
      else
        res.writeHead(204).end(() => {
          request.answered = true;
          changed();
        });
      changed();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`,
    requests,
    until: (test: () => boolean) => (test() ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ test, resolve }))),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The process's database as the test reaches it: a PGlite data directory (only while no process runs) or a PostgreSQL URL. */
async function openDatabase(target: { dataDir: string; url: string | null }): Promise<Database> {
  return target.url
    ? connectDatabase({ kind: "postgres", url: target.url, max: 1 })
    : connectDatabase({ kind: "pglite", dataDir: target.dataDir });
}

const dir = tempDir("latchkey-webhook-crash-");
const cleanups: (() => Promise<void> | void)[] = [() => dir.remove()];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** A server process's environment on a free port, with receivers on loopback allowed. */
async function processEnv(dataDir: string, url: string | null, extra: Record<string, string> = {}) {
  const port = await freePort();
  return {
    PORT: String(port),
    LATCHKEY_API_URL: `http://127.0.0.1:${port}`,
    LATCHKEY_DATA_DIR: dataDir,
    STACK_SERVER_SECRET: randomBytes(32).toString("hex"),
    LATCHKEY_WEBHOOKS_ALLOW_PRIVATE_URLS: "true",
    ...(url && { DATABASE_URL: url }),
    ...extra,
  };
}

/** A migrated data directory of its own, and on PostgreSQL a database of its own (dropped at the end). */
async function freshDatabase(name: string): Promise<{ dataDir: string; url: string | null }> {
  const dataDir = join(dir.path, name);
  migratedDataDir(dataDir);
  if (!onPostgres) return { dataDir, url: null };
  const database = await postgresDatabase("latchkey_crash");
  cleanups.push(database.drop);
  return { dataDir, url: database.url };
}

it(
  "a message committed before a kill -9 is delivered after the restart, answered once, with one attempt logged",
  async () => {
    const { dataDir, url } = await freshDatabase("data");
    const receiver = await startHoldingReceiver();
    cleanups.push(receiver.close);
    const publishableClientKey = `pck_crash_${randomBytes(20).toString("hex")}`;
    const env = await processEnv(dataDir, url, { STACK_SEED_INTERNAL_PROJECT_PUBLISHABLE_CLIENT_KEY: publishableClientKey });
    const apiUrl = env.LATCHKEY_API_URL;
    const serverSecret = env.STACK_SERVER_SECRET;

    // A first start makes the internal project and its keys; the endpoint is written while it is stopped.
    const first = startProcess(env);
    await first.waitFor(SERVING);
    expect(await first.stop()).toBe(0);
    const secret = newEndpointSecret();
    const endpointId = webhookId("ep", Date.now());
    const setup = await openDatabase({ dataDir, url });
    await setup.db.insert(webhookEndpoints).values({
      id: endpointId,
      projectId: "internal",
      url: receiver.url,
      // One message per sign-up (it also creates a team and a session): the one job that the kill interrupts.
      filterTypes: ["user.created"],
      secretSealed: sealEndpointSecret(serverSecret, secret),
      createdAt: new Date(),
      updatedAt: new Date(),
    });
    await setup.close();

    const killed = startProcess(env);
    await killed.waitFor(SERVING);
    await signUpToInternal(apiUrl, publishableClientKey, "crash@example.com");
    // The commit is done and the first attempt is at the receiver, unanswered: the process dies now.
    await receiver.until(() => receiver.requests.length === 1);
    killed.child.kill("SIGKILL");
    expect(await killed.exited).toBeNull();
    expect(receiver.requests.every((r) => !r.answered)).toBe(true);

    const restarted = startProcess(env);
    try {
      await restarted.waitFor(SERVING);
      // On PGlite the dead process's claim is run out at start; on PostgreSQL it expires (the kind's lease). Either
      // way the restarted process takes the job over.
      await receiver.until(() => receiver.requests.some((r) => r.answered));
      expect(restarted.output().includes(TOOK_OVER)).toBe(!onPostgres);
    } finally {
      expect(await restarted.stop()).toBe(0);
    }

    const [held, delivered, ...more] = receiver.requests;
    expect(more).toEqual([]);
    expect(delivered!.headers["webhook-id"]).toBe(held!.headers["webhook-id"]);
    const plain = Object.fromEntries(Object.entries(delivered!.headers).map(([k, v]) => [k, String(v)]));
    expect(new Webhook(secret).verify(delivered!.body, plain)).toMatchObject({
      type: "user.created",
      data: { primary_email: "crash@example.com" },
    });

    const after = await openDatabase({ dataDir, url });
    try {
      const messages = await after.db.select().from(webhookMessages).where(eq(webhookMessages.projectId, "internal"));
      const userCreated = messages.filter((m) => m.eventType === "user.created");
      expect(userCreated.map((m) => m.id)).toEqual([held!.headers["webhook-id"]]);
      const attempts = await after.db.select().from(webhookAttempts).where(eq(webhookAttempts.endpointId, endpointId));
      // The killed process logged nothing: the attempt it began never ended.
      expect(attempts.map((a) => [a.messageId, a.status, a.responseStatusCode])).toEqual([[userCreated[0]!.id, 0, 204]]);
      const deliveries = await after.db.select().from(jobs).where(eq(jobs.kind, "webhook.deliver"));
      expect(deliveries.map((j) => [j.status, j.attempts])).toEqual([["done", 2]]);
    } finally {
      await after.close();
    }
  },
  2 * PROCESS_TIMEOUT,
);

it(
  "an event left pending by a process that stopped before its fan-out is sent by the next start",
  async () => {
    const { dataDir, url } = await freshDatabase("data-pending");
    const receiver = await startWebhookReceiver();
    cleanups.push(receiver.close);
    const env = await processEnv(dataDir, url);
    const first = startProcess(env);
    await first.waitFor(SERVING);
    expect(await first.stop()).toBe(0);

    // What a change committed just before its process was killed leaves: its event, pending, and no message yet.
    const secret = newEndpointSecret();
    const invitation = { id: randomUUID(), team_id: randomUUID() };
    const setup = await openDatabase({ dataDir, url });
    try {
      await setup.db.insert(webhookEndpoints).values({
        id: webhookId("ep", Date.now()),
        projectId: "internal",
        url: receiver.url,
        secretSealed: sealEndpointSecret(env.STACK_SERVER_SECRET, secret),
        createdAt: new Date(),
        updatedAt: new Date(),
      });
      await setup.db
        .insert(outboxEvents)
        .values({ projectId: "internal", branchId: "main", type: "team_invitation.created", payload: invitation, pending: true });
    } finally {
      await setup.close();
    }

    const next = startProcess(env);
    try {
      await next.waitFor(SERVING);
      const delivered = await receiver.request(1);
      const plain = Object.fromEntries(Object.entries(delivered.headers).map(([k, v]) => [k, String(v)]));
      expect(new Webhook(secret).verify(delivered.body, plain)).toEqual({ type: "team_invitation.created", data: invitation });
    } finally {
      expect(await next.stop()).toBe(0);
    }
    const after = await openDatabase({ dataDir, url });
    try {
      const events = await after.db.select().from(outboxEvents).where(eq(outboxEvents.type, "team_invitation.created"));
      expect(events.map((e) => e.pending)).toEqual([false]);
      const messages = await after.db.select().from(webhookMessages).where(eq(webhookMessages.projectId, "internal"));
      expect(messages.map((m) => m.eventType)).toEqual(["team_invitation.created"]);
      expect(receiver.received).toHaveLength(1);
    } finally {
      await after.close();
    }
  },
  2 * PROCESS_TIMEOUT,
);
