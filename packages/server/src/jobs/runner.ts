/**
 * One runner per process runs every kind of job (jobs/kinds.ts) from the jobs table that all replicas share.
 * It wakes when a commit enqueued a job (JOBS_CHANNEL, heard by every replica, or a local kick), and on a timer
 * for the next job due later or claim due to expire; each wake claims and runs due jobs, a few at a time, until
 * none is due. A job is claimed for its kind's lease: a replica that dies mid-run leaves a claim that expires,
 * and the job is claimed again; its outcome is recorded only while the claim is held (store.ts), so each job
 * ends once. A handler's side effects may repeat only when a lease expired under it (a handler outliving its
 * lease, a replica lost mid-run).
 *
 * Feeders (JobFeeder) turn committed work into jobs after the commit: they run before the claims of a wake that
 * asked for them (kickSoon, a timer, an explicit flush, the start), not of every notification.
 */
import { randomUUID } from "node:crypto";
import type { Logger } from "pino";
import type { Database, Db } from "../db/connect.ts";
import type { Clock } from "../lib/clock.ts";
import {
  FinalJobError,
  retryDelayMillis,
  type AnyJobKindDefinition,
  type JobContext,
  type JobFeeder,
  type JobKind,
  type JobKindDefinition,
} from "./kinds.ts";
import { JOBS_CHANNEL, claimNextJob, expireAllClaims, finishJob, nextJobWakeUp, type JobRow } from "./store.ts";

/** The longest the runner sleeps without looking: a notification lost while the listener reconnected is found. */
const MAX_SLEEP_MILLIS = 5000;
/** The shortest: a job due now that another replica is claiming is not asked for in a tight loop. */
const MIN_SLEEP_MILLIS = 50;
/** How long kickSoon waits: commits in a burst share one wake, and a feeder takes their work in one batch. */
export const FEED_DELAY_MILLIS = 250;

export interface JobRunnerOptions {
  /** Jobs run at once by this process. */
  concurrency?: number;
}

export class JobRunner {
  readonly #kinds = new Map<string, JobKindDefinition>();
  readonly #feeders: JobFeeder[] = [];
  readonly #concurrency: number;
  #timer: NodeJS.Timeout | null = null;
  #soon: NodeJS.Timeout | null = null;
  /** The next round runs the feeders. */
  #feedWanted = false;
  #running: Promise<number> | null = null;
  /** The look for the next wake-up, awaited by close (the database closes next). */
  #looking: Promise<void> = Promise.resolve();
  #again = false;
  #started = false;
  #closed = false;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly logger: Logger,
    options: JobRunnerOptions = {},
  ) {
    this.#concurrency = options.concurrency ?? 4;
  }

  /** Adds a kind this process runs (claimed from the next wake on). */
  register(definition: AnyJobKindDefinition): void {
    if (this.#kinds.has(definition.kind)) throw new Error(`Job kind ${definition.kind} is registered twice`);
    if (definition.retry.maxAttempts < 1) throw new Error(`Job kind ${definition.kind} needs at least one attempt`);
    this.#kinds.set(definition.kind, definition as unknown as JobKindDefinition);
  }

  /** Adds a feeder, run before the claims of the wakes that ask for it. */
  addFeeder(feeder: JobFeeder): void {
    this.#feeders.push(feeder);
  }

  /** Feeds and runs what is due within FEED_DELAY_MILLIS: after a commit that left work for a feeder. */
  kickSoon(): void {
    if (this.#closed || this.#soon) return;
    this.#soon = setTimeout(() => {
      this.#soon = null;
      this.#feedWanted = true;
      this.kick();
    }, FEED_DELAY_MILLIS).unref();
  }

  /**
   * Listens for enqueued jobs and runs what is due, until closed. `holdsDataDirLock`: this process holds the PGlite
   * data directory's lock (process/data-dir-lock.ts), so no other process can use the database.
   */
  async start(database: Database, options: { holdsDataDirLock?: boolean } = {}): Promise<void> {
    this.#started = true;
    // A job still running at start on a database no other process can use was claimed by a process that is gone
    // (killed mid-run): no one will finish it, so its claim is run out now rather than after its lease. Only
    // then: on PostgreSQL, or an embedded database shared within a process, another runner may hold a live claim.
    if (options.holdsDataDirLock && database.kind === "pglite") {
      const expired = await expireAllClaims(this.db, this.clock.date());
      if (expired > 0) this.logger.info({ jobs: expired }, "took over the jobs a previous process left running");
    }
    // A (re)connected listener may have missed notifications: look at the table.
    await database.listen(
      JOBS_CHANNEL,
      () => this.kick(),
      () => this.kick(),
    );
    // Work a stopped process left to the feeders is taken now.
    this.#feedWanted = true;
    this.kick();
  }

  /** Runs what is due now, in the background (e.g. right after a commit that enqueued a job). */
  kick(): void {
    if (this.#closed) return;
    void this.#wake().catch((error: unknown) => this.logger.error({ err: error }, "job run failed"));
  }

  /** Feeds, then runs every job due now; resolves with how many attempts this run made. */
  flush(): Promise<number> {
    this.#feedWanted = true;
    return this.#wake();
  }

  async #wake(): Promise<number> {
    if (this.#closed) return 0;
    if (this.#running) {
      // One run at a time per process: ask the current one to go round again.
      this.#again = true;
      return this.#running;
    }
    this.#running = this.drain();
    try {
      return await this.#running;
    } finally {
      this.#running = null;
      this.#schedule();
    }
  }

  /** Stops claiming and waits for the handlers running now to end (the database closes next). */
  async close(): Promise<void> {
    this.#closed = true;
    if (this.#timer) clearTimeout(this.#timer);
    if (this.#soon) clearTimeout(this.#soon);
    this.#timer = null;
    this.#soon = null;
    await this.#running?.catch(() => 0);
    await this.#looking;
  }

  private async drain(): Promise<number> {
    let handled = 0;
    // Read each round: a kind registered while a run goes on (at start, before the capabilities' kinds) is claimed in its next round.
    let leases = new Map<string, number>();
    const worker = async () => {
      // One job per claim: a claim never waits behind other jobs, so its lease covers only its own run.
      while (!this.#closed) {
        const job = await claimNextJob(this.db, leases, randomUUID(), this.clock.date());
        if (!job) return;
        handled += 1;
        await this.run(job);
      }
    };
    do {
      this.#again = false;
      leases = new Map([...this.#kinds.values()].map((kind) => [kind.kind, kind.leaseMillis]));
      const feeding = this.#feedWanted;
      this.#feedWanted = false;
      await Promise.all([feeding ? this.#feed() : null, ...Array.from({ length: this.#concurrency }, worker)]);
    } while ((this.#again || this.#feedWanted) && !this.#closed);
    return handled;
  }

  /** Runs each feeder once; what one fed is claimed in another round. */
  async #feed(): Promise<void> {
    for (const feeder of this.#feeders) {
      try {
        if ((await feeder.feed()) > 0) this.#again = true;
      } catch (error) {
        // Its work stays where it was (a feeder takes it in its own transaction) for the next wake.
        this.logger.error({ err: error, feeder: feeder.name }, "a job feeder failed");
      }
    }
  }

  private async run(job: JobRow): Promise<void> {
    const definition = this.#kinds.get(job.kind)!;
    const delay = retryDelayMillis(definition.retry, job.attempts);
    const context: JobContext = {
      id: job.id,
      kind: job.kind as JobKind,
      payload: job.payload as JobContext["payload"],
      tenancy: job.projectId ? { projectId: job.projectId, branchId: job.branchId } : null,
      attempt: job.attempts,
      claim: job.claimedBy!,
      retryAt: delay === null ? null : new Date(this.clock.now() + delay),
    };
    let outcome: Parameters<typeof finishJob>[2];
    try {
      await definition.handler(context);
      outcome = { status: "done" };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const final = error instanceof FinalJobError || context.retryAt === null;
      this.logger.warn({ jobId: job.id, kind: job.kind, attempt: job.attempts, final, err: error }, "job attempt failed");
      outcome = final ? { status: "failed", error: message } : { status: "queued", error: message, runAt: context.retryAt! };
    }
    try {
      const held = await finishJob(this.db, job, outcome, this.clock.date());
      if (!held) this.logger.warn({ jobId: job.id, kind: job.kind }, "job's claim expired before it ended; another replica took it over");
    } catch (error) {
      // The claim expires and the job runs again: a lost outcome is retried, never dropped.
      this.logger.error({ err: error, jobId: job.id, kind: job.kind }, "recording a job's outcome failed");
    }
  }

  /** A timer's wake feeds too: work left by a replica that stopped before its feeders ran is found within MAX_SLEEP_MILLIS. */
  #timerWake(): void {
    this.#feedWanted = true;
    this.kick();
  }

  /** Sleeps until the next job is due or claim expires (or MAX_SLEEP_MILLIS), by the injected clock's time. */
  #schedule(): void {
    if (!this.#started || this.#closed) return;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    this.#looking = nextJobWakeUp(this.db, [...this.#kinds.keys()])
      .then((due) => {
        if (this.#closed || this.#running) return;
        const wait =
          due === null ? MAX_SLEEP_MILLIS : Math.min(MAX_SLEEP_MILLIS, Math.max(MIN_SLEEP_MILLIS, due.getTime() - this.clock.now()));
        if (this.#timer) clearTimeout(this.#timer);
        this.#timer = setTimeout(() => this.#timerWake(), wait).unref();
      })
      .catch((error: unknown) => {
        if (this.#closed) return;
        this.logger.error({ err: error }, "finding the next job failed");
        this.#timer = setTimeout(() => this.#timerWake(), MAX_SLEEP_MILLIS).unref();
      });
  }
}
