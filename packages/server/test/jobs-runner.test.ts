/**
 * The job runner (src/jobs/): a job runs once, a failing one retries by its kind's back-off as the clock moves,
 * runs out of attempts and fails, a dead replica's claim is taken over when its lease ends, a rolled-back write
 * enqueues nothing, two replicas on one database run each job once, and a stop waits for the handlers running.
 */
import { randomUUID } from "node:crypto";
import { and, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jobs } from "../src/db/schema/index.ts";
import { FinalJobError, type JobContext, type JobKind, type RetryPolicy } from "../src/jobs/kinds.ts";
import { FINISHED_JOBS_KEPT_MILLIS, claimNextJob, enqueueJob, finishJob } from "../src/jobs/store.ts";
import { createProject } from "./fixtures.ts";
import { createTestServer, type TestServer } from "./harness.ts";

declare module "../src/jobs/kinds.ts" {
  interface JobPayloads {
    "test.once": { n: number };
    "test.retry": { n: number };
    "test.recover": { n: number };
    "test.final": { n: number };
    "test.stale": { n: number };
    "test.rollback": { n: number };
    "test.replicas": { n: number };
    "test.stop": { n: number };
    "test.keep": { n: number };
    "test.fed": { n: number };
  }
}

const onPostgres = process.env.LATCHKEY_TEST_DB === "postgres";
const SECOND = 1000;
const MINUTE = 60 * SECOND;
/** The webhooks' schedule (retried 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h after the first attempt). */
const WEBHOOK_LIKE: RetryPolicy = {
  maxAttempts: 8,
  backoffMillis: [5 * SECOND, 5 * MINUTE, 30 * MINUTE, 2 * 60 * MINUTE, 5 * 60 * MINUTE, 10 * 60 * MINUTE, 10 * 60 * MINUTE],
};

let server: TestServer;

beforeAll(async () => {
  server = await createTestServer();
});
afterAll(() => server?.close());

/** The calls a kind's handler got, and a promise for the `count`-th. */
function recorder() {
  const calls: JobContext[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  return {
    calls,
    record(job: JobContext) {
      calls.push(job);
      for (const w of waiters.filter((w) => calls.length >= w.count)) w.resolve();
    },
    /** Resolves once `count` calls were made; fails the test after 10 s rather than hang. */
    reached(count: number): Promise<void> {
      if (calls.length >= count) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`${calls.length} calls of ${count} within 10 s`)), 10_000);
        waiters.push({ count, resolve: () => (clearTimeout(timer), resolve()) });
      });
    },
  };
}

async function enqueue<K extends JobKind>(s: TestServer, kind: K, payload: Parameters<typeof enqueueJob<K>>[1]["payload"]) {
  const { events, db, clock } = s.instance.services;
  return events.transaction(db, (tx) => enqueueJob(tx, { kind, payload }, clock.date()));
}

async function jobRow(s: TestServer, id: string) {
  const [row] = await s.instance.services.db.select().from(jobs).where(eq(jobs.id, id));
  return row!;
}

describe("one replica", () => {
  it("runs a job once, woken by the commit that enqueued it", async () => {
    const runs = recorder();
    server.instance.services.jobs.register({
      kind: "test.once",
      retry: WEBHOOK_LIKE,
      leaseMillis: MINUTE,
      handler: async (job) => runs.record(job),
    });
    const project = await createProject(server);
    const id = await server.instance.services.events.transaction(server.instance.services.db, (tx) =>
      enqueueJob(tx, { kind: "test.once", payload: { n: 1 }, tenancy: { projectId: project.id, branchId: null } }, server.clock.date()),
    );
    // No flush: the commit's notification wakes the runner.
    await runs.reached(1);
    await server.instance.services.jobs.flush();
    expect(runs.calls).toHaveLength(1);
    expect(runs.calls[0]).toMatchObject({ id, payload: { n: 1 }, attempt: 1, tenancy: { projectId: project.id, branchId: null } });
    expect(await jobRow(server, id)).toMatchObject({ status: "done", attempts: 1, lastError: null, claimedBy: null });
    // Done is done: a later run, even much later, leaves it alone.
    await server.clock.ahead(60 * MINUTE, () => server.instance.services.jobs.flush());
    expect(runs.calls).toHaveLength(1);
  });

  it("retries a failing handler by its kind's back-off, then fails it after the last attempt", async () => {
    const runs = recorder();
    const { jobs: runner } = server.instance.services;
    runner.register({
      kind: "test.retry",
      retry: WEBHOOK_LIKE,
      leaseMillis: MINUTE,
      handler: async (job) => {
        runs.record(job);
        throw new Error(`refused, attempt ${job.attempt}`);
      },
    });
    const id = await enqueue(server, "test.retry", { n: 2 });
    await runs.reached(1);
    await runner.flush();
    const first = await jobRow(server, id);
    expect(first).toMatchObject({ status: "queued", attempts: 1, lastError: "refused, attempt 1", claimedBy: null });
    expect(first.runAt.getTime() - server.clock.now()).toBeGreaterThan(4 * SECOND);
    expect(first.runAt.getTime() - server.clock.now()).toBeLessThanOrEqual(5 * SECOND);
    // Each round on a clock moved ahead by the back-offs so far (and back after).
    let ahead = 0;
    for (let attempt = 2; attempt <= WEBHOOK_LIKE.maxAttempts; attempt++) {
      ahead += WEBHOOK_LIKE.backoffMillis[attempt - 2]!;
      // A second before it is due, it is left alone.
      await server.clock.ahead(ahead - SECOND, () => runner.flush());
      expect((await jobRow(server, id)).attempts).toBe(attempt - 1);
      await server.clock.ahead(ahead + SECOND, () => runner.flush());
      expect(await jobRow(server, id)).toMatchObject({ attempts: attempt, lastError: `refused, attempt ${attempt}` });
    }
    const last = await jobRow(server, id);
    expect(last).toMatchObject({ status: "failed", attempts: 8, claimedBy: null });
    expect(last.finishedAt).not.toBeNull();
    expect(runs.calls.map((c) => c.attempt)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(runs.calls.at(-1)!.retryAt).toBeNull();
    // Failed is final: nothing runs it again.
    await server.clock.ahead(ahead + 24 * 60 * MINUTE, () => runner.flush());
    expect(runs.calls).toHaveLength(8);
  });

  it("a job that fails once and then succeeds is done", async () => {
    const runs = recorder();
    const { jobs: runner } = server.instance.services;
    runner.register({
      kind: "test.recover",
      retry: { maxAttempts: 3, backoffMillis: [30 * SECOND] },
      leaseMillis: MINUTE,
      handler: async (job) => {
        runs.record(job);
        if (job.attempt === 1) throw new Error("not yet");
      },
    });
    const id = await enqueue(server, "test.recover", { n: 3 });
    await runs.reached(1);
    await server.clock.ahead(31 * SECOND, () => runner.flush());
    expect(await jobRow(server, id)).toMatchObject({ status: "done", attempts: 2, lastError: null });
  });

  it("FinalJobError fails the job at once, whatever attempts are left", async () => {
    const runs = recorder();
    server.instance.services.jobs.register({
      kind: "test.final",
      retry: WEBHOOK_LIKE,
      leaseMillis: MINUTE,
      handler: async (job) => {
        runs.record(job);
        throw new FinalJobError("gone for good");
      },
    });
    const id = await enqueue(server, "test.final", { n: 4 });
    await runs.reached(1);
    await server.instance.services.jobs.flush();
    expect(await jobRow(server, id)).toMatchObject({ status: "failed", attempts: 1, lastError: "gone for good" });
  });

  it("takes over a job whose replica died holding its claim, once the lease ends; the dead claim records nothing", async () => {
    const { jobs: runner, db } = server.instance.services;
    const runs = recorder();
    const id = await enqueue(server, "test.stale", { n: 5 });
    // A replica that knows the kind claims it for a minute, then dies (the kind is not registered here yet).
    const dead = await claimNextJob(db, new Map([["test.stale", MINUTE]]), randomUUID(), server.clock.date());
    expect(dead).toMatchObject({ id, status: "running", attempts: 1 });
    runner.register({ kind: "test.stale", retry: WEBHOOK_LIKE, leaseMillis: MINUTE, handler: async (job) => runs.record(job) });
    await runner.flush();
    await server.clock.ahead(MINUTE - SECOND, () => runner.flush());
    expect(runs.calls).toHaveLength(0);
    expect(await jobRow(server, id)).toMatchObject({ status: "running", claimedBy: dead!.claimedBy });
    await server.clock.ahead(MINUTE + SECOND, () => runner.flush());
    expect(runs.calls).toHaveLength(1);
    expect(runs.calls[0]).toMatchObject({ id, attempt: 2 });
    expect(await jobRow(server, id)).toMatchObject({ status: "done", attempts: 2 });
    // The dead replica comes back and reports: its claim is no longer held, and the outcome stands.
    expect(await finishJob(db, dead!, { status: "failed", error: "late" }, server.clock.date())).toBe(false);
    expect(await jobRow(server, id)).toMatchObject({ status: "done", lastError: null });
  });

  it("a rolled-back write enqueues nothing", async () => {
    const { jobs: runner, db, events, clock } = server.instance.services;
    const runs = recorder();
    runner.register({ kind: "test.rollback", retry: WEBHOOK_LIKE, leaseMillis: MINUTE, handler: async (job) => runs.record(job) });
    let enqueued: string | null = null;
    await expect(
      events.transaction(db, async (tx) => {
        enqueued = await enqueueJob(tx, { kind: "test.rollback", payload: { n: 6 } }, clock.date());
        throw new Error("the write fails after enqueueing");
      }),
    ).rejects.toThrow("the write fails");
    expect(enqueued).not.toBeNull();
    expect(await db.select().from(jobs).where(eq(jobs.kind, "test.rollback"))).toEqual([]);
    await runner.flush();
    expect(runs.calls).toHaveLength(0);
  });

  it("housekeeping deletes finished jobs after the retention period and keeps the rest", async () => {
    const { jobs: runner, db, housekeeping } = server.instance.services;
    runner.register({
      kind: "test.keep",
      retry: { maxAttempts: 1, backoffMillis: [] },
      leaseMillis: MINUTE,
      handler: async (job) => {
        if (job.payload.n === 2) throw new Error("fails");
      },
    });
    const done = await enqueue(server, "test.keep", { n: 1 });
    const failed = await enqueue(server, "test.keep", { n: 2 });
    await runner.flush();
    expect((await jobRow(server, failed)).status).toBe("failed");
    // Due only after the retention period: still waiting then, so kept.
    const waiting = await server.instance.services.events.transaction(db, (tx) =>
      enqueueJob(tx, { kind: "test.keep", payload: { n: 3 }, runAt: new Date(server.clock.now() + 30 * 86_400_000) }, server.clock.date()),
    );
    const ids = [done, failed, waiting];
    const left = async () => (await db.select({ id: jobs.id }).from(jobs).where(inArray(jobs.id, ids))).map((r) => r.id).sort();
    await server.clock.ahead(FINISHED_JOBS_KEPT_MILLIS - MINUTE, () => housekeeping.run());
    expect(await left()).toEqual([...ids].sort());
    const round = await server.clock.ahead(FINISHED_JOBS_KEPT_MILLIS + MINUTE, () => housekeeping.run());
    expect(round).toMatchObject({ finishedJobs: expect.any(Number) });
    expect(await left()).toEqual([waiting]);
  });
});

/** A server of its own whose runner runs `test.fed` jobs, recorded. */
async function serverRunningFedJobs() {
  const own = await createTestServer();
  const runs = recorder();
  own.instance.services.jobs.register({
    kind: "test.fed",
    retry: WEBHOOK_LIKE,
    leaseMillis: MINUTE,
    handler: async (job) => runs.record(job),
  });
  return { own, runs };
}

describe("feeders", () => {
  it("run before the claims of a flush, whose jobs then run in the same flush; kickSoon feeds without one", async () => {
    const { own, runs } = await serverRunningFedJobs();
    /** Work left for the feeder, as committed changes leave pending outbox rows. */
    const waiting: number[] = [];
    let feeds = 0;
    let fed: () => void = () => {};
    own.instance.services.jobs.addFeeder({
      name: "test.feeder",
      feed: async () => {
        feeds += 1;
        const taken = waiting.splice(0);
        for (const n of taken) await enqueue(own, "test.fed", { n });
        fed();
        return taken.length;
      },
    });
    waiting.push(1, 2);
    expect(await own.instance.services.jobs.flush()).toBe(2);
    expect(runs.calls.map((job) => (job.payload as { n: number }).n).sort()).toEqual([1, 2]);

    const feeding = new Promise<void>((resolve) => (fed = resolve));
    waiting.push(3);
    const before = feeds;
    own.instance.services.jobs.kickSoon();
    own.instance.services.jobs.kickSoon();
    await feeding;
    await runs.reached(3);
    expect(feeds).toBeGreaterThan(before);
    expect(waiting).toEqual([]);
    await own.close();
  });

  it("a failing feeder leaves its work and stops no job", async () => {
    const { own, runs } = await serverRunningFedJobs();
    let failing = true;
    const waiting = [7];
    own.instance.services.jobs.addFeeder({
      name: "test.feeder",
      feed: async () => {
        if (failing) throw new Error("the feeder's database is away");
        const taken = waiting.splice(0);
        for (const n of taken) await enqueue(own, "test.fed", { n });
        return taken.length;
      },
    });
    const sixId = await enqueue(own, "test.fed", { n: 6 });
    await own.instance.services.jobs.flush();
    expect(await jobRow(own, sixId)).toMatchObject({ status: "done" });
    expect(runs.calls.map((job) => (job.payload as { n: number }).n)).toEqual([6]);
    expect(waiting).toEqual([7]);
    failing = false;
    await own.instance.services.jobs.flush();
    expect(runs.calls.map((job) => (job.payload as { n: number }).n)).toEqual([6, 7]);
    await own.close();
  });
});

describe("stopping", () => {
  it("waits for the handlers running, and claims nothing after", async () => {
    const own = await createTestServer();
    const order: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const started = recorder();
    own.instance.services.jobs.register({
      kind: "test.stop",
      retry: WEBHOOK_LIKE,
      leaseMillis: MINUTE,
      handler: async (job) => {
        started.record(job);
        await gate;
        order.push(`handler ${job.payload.n} ended`);
      },
    });
    const id = await enqueue(own, "test.stop", { n: 1 });
    await started.reached(1);
    const db = own.instance.services.db;
    // The handler holds the runner; the stop waits for it.
    const stopped = own.instance.services.jobs.close().then(() => order.push("runner stopped"));
    // Enqueued while stopping: left for another replica or the next start.
    const later = await enqueue(own, "test.stop", { n: 2 });
    await new Promise((resolve) => setImmediate(resolve));
    expect(order).toEqual([]);
    release();
    await stopped;
    expect(order).toEqual(["handler 1 ended", "runner stopped"]);
    const rows = await db
      .select()
      .from(jobs)
      .where(and(eq(jobs.kind, "test.stop")));
    expect(rows.find((r) => r.id === id)).toMatchObject({ status: "done" });
    expect(rows.find((r) => r.id === later)).toMatchObject({ status: "queued", attempts: 0 });
    expect(started.calls).toHaveLength(1);
    await own.close();
  });
});

describe.runIf(onPostgres)("two replicas on one database", () => {
  let a: TestServer;
  let b: TestServer;
  beforeAll(async () => {
    a = await createTestServer();
    b = await createTestServer({}, { replicaOf: a });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it("run each of 60 jobs exactly once between them", async () => {
    const runs = recorder();
    const byReplica = new Map<string, string[]>();
    for (const [name, s] of [
      ["a", a],
      ["b", b],
    ] as const) {
      s.instance.services.jobs.register({
        kind: "test.replicas",
        retry: WEBHOOK_LIKE,
        leaseMillis: MINUTE,
        handler: async (job) => {
          // A query in the handler lets the other replica's claims interleave.
          await s.instance.services.db.select({ id: jobs.id }).from(jobs).where(eq(jobs.id, job.id));
          byReplica.set(name, [...(byReplica.get(name) ?? []), job.id]);
          runs.record(job);
        },
      });
    }
    // Half enqueued through each replica, in transactions of a few jobs each, so both wake to full queues.
    const ids: string[] = [];
    await Promise.all(
      [a, b].flatMap((s) =>
        Array.from({ length: 6 }, (_, t) =>
          s.instance.services.events.transaction(s.instance.services.db, async (tx) => {
            for (let i = 0; i < 5; i++)
              ids.push(await enqueueJob(tx, { kind: "test.replicas", payload: { n: t * 5 + i } }, s.clock.date()));
          }),
        ),
      ),
    );
    expect(ids).toHaveLength(60);
    await runs.reached(60);
    await Promise.all([a.instance.services.jobs.flush(), b.instance.services.jobs.flush()]);
    const ran = runs.calls.map((c) => c.id);
    expect(ran).toHaveLength(60);
    expect(new Set(ran)).toEqual(new Set(ids));
    const rows = await a.instance.services.db.select().from(jobs).where(inArray(jobs.id, ids));
    expect(rows.every((r) => r.status === "done" && r.attempts === 1)).toBe(true);
    expect([...byReplica.values()].flat().sort()).toEqual([...ids].sort());
  });
});
