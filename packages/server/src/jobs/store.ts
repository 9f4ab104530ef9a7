/**
 * The jobs table's statements (db/schema/jobs.ts). A claim is one short statement (SKIP LOCKED: replicas
 * claiming at once take different jobs) and every outcome is conditional on still holding the claim, so a job's
 * end is recorded once however many replicas run. Times are the injected clock's, never the database's now():
 * a test that moves its clock makes retries due and claims stale.
 */
import { and, eq, gt, inArray, sql } from "drizzle-orm";
import type { Db, DbOrTx } from "../db/connect.ts";
import { queryRows } from "../db/rows.ts";
import { jobs } from "../db/schema/index.ts";
import type { EventTx } from "../events/transaction.ts";
import type { JobKind, JobPayloads, JobTenancy } from "./kinds.ts";

export type JobRow = typeof jobs.$inferSelect;

/** The channel on which a commit that enqueued jobs wakes every replica's runner (this one's included). */
export const JOBS_CHANNEL = "latchkey_jobs";

/** How long finished jobs are kept (for operators to look at) before housekeeping deletes them. */
export const FINISHED_JOBS_KEPT_MILLIS = 7 * 86_400_000;
const DELETE_BATCH = 5000;

export interface NewJob<K extends JobKind> {
  kind: K;
  payload: JobPayloads[K];
  tenancy?: JobTenancy | null;
  /** When it is due; now when absent. */
  runAt?: Date;
}

/**
 * Enqueues a job in the caller's transaction: it exists, and the runners hear of it, only if that commits.
 * `now` is the clock's time (lib/clock.ts).
 */
export async function enqueueJob<K extends JobKind>(tx: EventTx, job: NewJob<K>, now: Date): Promise<string> {
  return (await enqueueJobs(tx, [job], now))[0]!;
}

/** Kinds already announced by each transaction: one notification per kind tells the runners all there is. */
const announced = new WeakMap<EventTx, Set<string>>();

/** Several jobs at once (a webhook message's deliveries): one insert, and each kind announced once per transaction. */
export async function enqueueJobs<K extends JobKind>(tx: EventTx, list: readonly NewJob<K>[], now: Date): Promise<string[]> {
  if (list.length === 0) return [];
  const rows = await tx
    .insert(jobs)
    .values(list.map((job) => jobValues(job, now)))
    .returning({ id: jobs.id });
  let kinds = announced.get(tx);
  if (!kinds) announced.set(tx, (kinds = new Set()));
  for (const kind of new Set(list.map((job) => job.kind))) {
    if (kinds.has(kind)) continue;
    kinds.add(kind);
    // Delivered by PostgreSQL at the commit, to every replica listening; a rollback drops it.
    await tx.execute(sql`select pg_notify(${JOBS_CHANNEL}, ${kind})`);
  }
  return rows.map((row) => row.id);
}

/** The job's row alone, announced to no runner: found at the next timer or flush (for tests and migrations of data). */
export async function insertJob<K extends JobKind>(db: DbOrTx, job: NewJob<K>, now: Date): Promise<string> {
  const [row] = await db.insert(jobs).values(jobValues(job, now)).returning({ id: jobs.id });
  return row!.id;
}

function jobValues<K extends JobKind>(job: NewJob<K>, now: Date) {
  return {
    kind: job.kind,
    payload: job.payload,
    projectId: job.tenancy?.projectId ?? null,
    branchId: job.tenancy?.branchId ?? null,
    runAt: job.runAt ?? now,
    createdAt: now,
  };
}

/**
 * Claims the next due job of the given kinds (each with its lease), or one whose claim expired (its replica
 * stopped), counting the attempt. Kinds this process does not know stay for a replica that does.
 */
export async function claimNextJob(db: Db, leases: ReadonlyMap<string, number>, claim: string, now: Date): Promise<JobRow | null> {
  if (leases.size === 0) return null;
  const at = now.toISOString();
  const kinds = [...leases.keys()];
  const lease = sql.join(
    kinds.map((kind) => sql`when ${kind} then ${leases.get(kind)!}::int`),
    sql` `,
  );
  const kindList = sql.join(
    kinds.map((kind) => sql`${kind}`),
    sql`, `,
  );
  // tenancy: one queue serves every project; a job carries its tenancy for its handler
  const [row] = await db
    .update(jobs)
    .set({
      status: "running",
      claimedBy: claim,
      attempts: sql`${jobs.attempts} + 1`,
      claimedUntil: sql`${at}::timestamptz + make_interval(secs => (case ${jobs.kind} ${lease} end) / 1000.0)`,
    })
    .where(
      // tenancy: the same queue, the next due job of any project
      sql`${jobs.id} = (
        select id from ${jobs}
        where kind in (${kindList})
          and ((status = 'queued' and run_at <= ${at}::timestamptz) or (status = 'running' and claimed_until < ${at}::timestamptz))
        order by run_at
        limit 1
        for update skip locked
      )`,
    )
    .returning();
  return row ?? null;
}

/** The outcome of an attempt; false when the claim was lost (another replica took the job over). */
export async function finishJob(
  db: Db,
  job: Pick<JobRow, "id" | "claimedBy">,
  outcome: { status: "done" } | { status: "failed"; error: string } | { status: "queued"; error: string; runAt: Date },
  now: Date,
): Promise<boolean> {
  // tenancy: one queue serves every project; a job carries its tenancy for its handler
  const rows = await db
    .update(jobs)
    .set({
      status: outcome.status,
      claimedBy: null,
      claimedUntil: null,
      lastError: outcome.status === "done" ? null : outcome.error,
      ...(outcome.status === "queued" ? { runAt: outcome.runAt } : { finishedAt: now }),
    })
    .where(and(eq(jobs.id, job.id), eq(jobs.claimedBy, job.claimedBy!), eq(jobs.status, "running")))
    .returning({ id: jobs.id });
  return rows.length === 1;
}

/**
 * Runs out every claim now, as if each had reached the end of its lease: for a process that is the database's only
 * user (see JobRunner.start), whose running jobs at start can only be claims of a process that is gone. Each is then
 * taken over by the next claim, as any expired claim is. Returns how many there were.
 */
export async function expireAllClaims(db: Db, now: Date): Promise<number> {
  // Just before now: a claim is taken over once its claimed_until is before the claim's time (claimNextJob).
  const past = new Date(now.getTime() - 1);
  // tenancy: one queue serves every project; a job carries its tenancy for its handler
  const rows = await db
    .update(jobs)
    .set({ claimedUntil: past })
    .where(and(eq(jobs.status, "running"), gt(jobs.claimedUntil, past)))
    .returning({ id: jobs.id });
  return rows.length;
}

/** When this process should look again: the earliest due time or claim expiry of the kinds, or null when none waits. */
export async function nextJobWakeUp(db: Db, kinds: readonly string[]): Promise<Date | null> {
  if (kinds.length === 0) return null;
  // tenancy: one queue serves every project; a job carries its tenancy for its handler
  const [row] = await db
    .select({
      due: sql<string | null>`min(case when ${jobs.status} = 'queued' then ${jobs.runAt} else ${jobs.claimedUntil} end)`,
    })
    .from(jobs)
    .where(and(inArray(jobs.kind, [...kinds]), inArray(jobs.status, ["queued", "running"])));
  return row?.due ? new Date(row.due) : null;
}

/** Deletes jobs finished longer ago than kept, a batch at a time (short statements); returns how many. */
export async function deleteFinishedJobs(db: Db, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - FINISHED_JOBS_KEPT_MILLIS);
  let deleted = 0;
  for (;;) {
    const rows = await queryRows(
      db,
      // tenancy: one queue serves every project; a job carries its tenancy for its handler
      sql`
      delete from ${jobs} where id in (
        select id from ${jobs} where status in ('done', 'failed') and finished_at < ${cutoff.toISOString()}::timestamptz limit ${DELETE_BATCH}
      ) returning 1 as one`,
    );
    deleted += rows.length;
    if (rows.length < DELETE_BATCH) return deleted;
  }
}

/** Jobs of a kind not finished, on every replica (for metrics). */
export async function pendingJobs(db: Db, kind: JobKind): Promise<number> {
  // tenancy: one queue serves every project; a job carries its tenancy for its handler
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(jobs)
    .where(and(eq(jobs.kind, kind), inArray(jobs.status, ["queued", "running"])));
  return Number(row?.n ?? 0);
}
