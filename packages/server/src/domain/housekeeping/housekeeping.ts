/**
 * Clean-up that no request waits for, run every few minutes by each server
 * process. Every task is idempotent and works in small batches, so replicas
 * running it at once only share the work.
 */
import type { Logger } from "pino";
import type { Db } from "../../db/connect.ts";
import type { Clock } from "../../lib/clock.ts";
import { deleteLongExpired as deleteLongExpiredCliLogins } from "../auth/cli/attempts.ts";
import { deleteExpiredFlows as deleteExpiredOAuthFlows } from "../auth/oauth/flows.ts";
import { deleteExpiredCodes } from "../codes/expired-codes.ts";
import { dropOldOutboxBodies } from "../emails/outbox.ts";
import { deleteOldActivityDays } from "../metrics/activity-retention.ts";
import { deleteOldOutboxEvents } from "../../events/retention.ts";
import { deleteFinishedJobs } from "../../jobs/store.ts";
import { utcDay } from "../users/activity.ts";

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

  private async round(now: Date): Promise<{
    expiredCodes: number;
    expiredCliLogins: number;
    expiredOAuthFlows: number;
    oldActivityDays: number;
    oldOutboxBodies: number;
    oldEvents: number;
    finishedJobs: number;
  }> {
    try {
      const expiredCodes = await deleteExpiredCodes(this.db, now);
      const expiredOAuthFlows = await deleteExpiredOAuthFlows(this.db, now);
      // CLI login requests are also swept, 100 at a time, when a CLI login starts; this covers quiet times.
      let expiredCliLogins = 0;
      for (let batch = await deleteLongExpiredCliLogins(this.db, now); batch > 0; batch = await deleteLongExpiredCliLogins(this.db, now)) {
        expiredCliLogins += batch;
      }
      let oldActivityDays = 0;
      if (this.#activityDaysSweptOn !== utcDay(now)) {
        oldActivityDays = await deleteOldActivityDays(this.db, now);
        this.#activityDaysSweptOn = utcDay(now);
      }
      const oldOutboxBodies = await dropOldOutboxBodies(this.db, now);
      const oldEvents = await deleteOldOutboxEvents(this.db, now);
      const finishedJobs = await deleteFinishedJobs(this.db, now);
      if (expiredCodes + expiredCliLogins + expiredOAuthFlows + oldActivityDays + oldOutboxBodies + oldEvents + finishedJobs > 0)
        this.logger.info(
          { expiredCodes, expiredCliLogins, expiredOAuthFlows, oldActivityDays, oldOutboxBodies, oldEvents, finishedJobs },
          "deleted long-expired codes, CLI logins, OAuth flows, old activity days, old dev-outbox bodies, old events and finished jobs",
        );
      return { expiredCodes, expiredCliLogins, expiredOAuthFlows, oldActivityDays, oldOutboxBodies, oldEvents, finishedJobs };
    } catch (error) {
      this.logger.error({ err: error }, "housekeeping failed; it runs again in a few minutes");
      return {
        expiredCodes: 0,
        expiredCliLogins: 0,
        expiredOAuthFlows: 0,
        oldActivityDays: 0,
        oldOutboxBodies: 0,
        oldEvents: 0,
        finishedJobs: 0,
      };
    }
  }

  /** Stops the timer and waits for a round in progress (the database closes next). */
  async close(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    await this.#running;
  }
}
