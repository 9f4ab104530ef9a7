/**
 * Clean-up that no request waits for, run every few minutes by each server
 * process: the tasks below, then each capability's (capabilities/define.ts
 * `housekeeping`). Every task is idempotent and works in small batches, so
 * replicas running it at once only share the work.
 */
import type { Logger } from "pino";
import type { Db } from "../../db/connect.ts";
import type { Clock } from "../../lib/clock.ts";
import { deleteExpiredFlows as deleteExpiredOAuthFlows } from "../auth/oauth/flows.ts";
import { deleteExpiredCodes } from "../codes/expired-codes.ts";
import { dropOldOutboxBodies } from "../emails/outbox.ts";
import { failInterruptedSends } from "../emails/queue.ts";
import { deleteOldActivityDays } from "../metrics/activity-retention.ts";
import { deleteOldOutboxEvents } from "../../events/retention.ts";
import { deleteFinishedJobs } from "../../jobs/store.ts";
import { utcDay } from "../users/activity.ts";

/** Clean-up no request waits for, run by each process's housekeeping (below); a capability names its own (capabilities/define.ts). */
export interface HousekeepingTask {
  /** The count's name in the round's result and log line, e.g. "expiredCliLogins". */
  name: string;
  /**
   * Deletes one small batch, across all projects, as of `now`; how many rows went.
   * Housekeeping repeats it until it returns 0, so it must skip rows another replica is working on.
   */
  sweep(db: Db, now: Date): Promise<number>;
}

const INTERVAL_MILLIS = 10 * 60 * 1000;

export class Housekeeping {
  #timer: NodeJS.Timeout | null = null;
  #running: Promise<unknown> | null = null;
  /** The UTC day old activity days were last deleted on: once a day is enough (domain/metrics/activity-retention.ts). */
  #activityDaysSweptOn: string | null = null;

  constructor(
    private readonly db: Db,
    private readonly logger: Logger,
    private readonly clock: Clock,
    /** The capabilities' tasks (capabilities/index.ts `capabilityHousekeeping()`). */
    private readonly tasks: readonly HousekeepingTask[],
  ) {}

  start(): void {
    this.#timer = setInterval(() => void this.run(), INTERVAL_MILLIS);
    // Never what keeps the process alive.
    this.#timer.unref();
  }

  /** One round of every task, as of the clock's time; a round still running is not started twice. */
  run(): Promise<unknown> {
    this.#running ??= this.round(this.clock.date()).finally(() => (this.#running = null));
    return this.#running;
  }

  private async round(now: Date): Promise<Record<string, number>> {
    try {
      const counts: Record<string, number> = {
        expiredCodes: await deleteExpiredCodes(this.db, now),
        expiredOAuthFlows: await deleteExpiredOAuthFlows(this.db, now),
      };
      for (const task of this.tasks) {
        let swept = 0;
        for (let batch = await task.sweep(this.db, now); batch > 0; batch = await task.sweep(this.db, now)) swept += batch;
        counts[task.name] = swept;
      }
      counts.oldActivityDays = 0;
      if (this.#activityDaysSweptOn !== utcDay(now)) {
        counts.oldActivityDays = await deleteOldActivityDays(this.db, now);
        this.#activityDaysSweptOn = utcDay(now);
      }
      counts.interruptedSends = await failInterruptedSends(this.db, now);
      counts.oldOutboxBodies = await dropOldOutboxBodies(this.db, now);
      counts.oldEvents = await deleteOldOutboxEvents(this.db, now);
      counts.finishedJobs = await deleteFinishedJobs(this.db, now);
      if (Object.values(counts).some((count) => count > 0)) this.logger.info(counts, "housekeeping deleted expired and old rows");
      return counts;
    } catch (error) {
      this.logger.error({ err: error }, "housekeeping failed; it runs again in a few minutes");
      const none = [
        "expiredCodes",
        "expiredOAuthFlows",
        ...this.tasks.map((task) => task.name),
        "oldActivityDays",
        "interruptedSends",
        "oldOutboxBodies",
        "oldEvents",
        "finishedJobs",
      ];
      return Object.fromEntries(none.map((name) => [name, 0]));
    }
  }

  /** Stops the timer and waits for a round in progress (the database closes next). */
  async close(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    await this.#running;
  }
}
