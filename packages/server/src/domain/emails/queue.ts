/**
 * E-mail sending, one kind of job (jobs/runner.ts): sent_emails keeps the record of each message (what the
 * admins list, with its status and error), and an `email.send` job names the message to send. Any replica may
 * send it; an attempt sends it through the project's SMTP server or the shared one and records the outcome:
 * sent, retried later with back-off (the job's retry), or failed with the error. With no SMTP server at all
 * (development), messages go to the dev outbox: logged and listed.
 */
import { and, eq, sql } from "drizzle-orm";
import { randomUUID } from "node:crypto";
import type { Logger } from "pino";
import type { Db, DbOrTx } from "../../db/connect.ts";
import { record, type EventTx } from "../../events/transaction.ts";
import { jobs, sentEmails, type SentEmailRow } from "../../db/schema/index.ts";
import { queryRows } from "../../db/rows.ts";
import { FinalJobError, type JobContext, type RetryPolicy } from "../../jobs/kinds.ts";
import type { JobRunner } from "../../jobs/runner.ts";
import { enqueueJob, insertJob } from "../../jobs/store.ts";
import type { EmailConfig } from "../projects/config.ts";
import type { ProjectStore } from "../projects/projects.ts";
import type { Clock } from "../../lib/clock.ts";
import type { Metrics } from "../../lib/metrics.ts";
import { sendSmtp, type OutgoingEmail, type SmtpSettings } from "./smtp.ts";
import { OUTBOX_STATUS } from "./outbox.ts";
import { warnIfSharedSmtpBroken } from "./smtp-check.ts";
import { PrivateSmtpHostError, SmtpDeadlineError, resolveSmtpHost, smtpFailureSummary } from "./smtp-guard.ts";

export const MAX_SEND_ATTEMPTS = 5;
/** One send may take this long in all; well under the lease, so no replica takes over a live send. */
const SEND_DEADLINE_MILLIS = 60_000;
/** A claim held longer than this belongs to a replica that stopped mid-send: the message is due again. */
const SEND_LEASE_MILLIS = 300_000;

/**
 * Queues a message; it is sent after the surrounding transaction commits (its job wakes the runners).
 * `now` is the clock's time (lib/clock.ts): the message is due from then.
 */
export async function enqueueEmail(tx: EventTx, projectId: string, email: OutgoingEmail, now: Date): Promise<string> {
  const id = await insertEmailRow(tx, projectId, email, now);
  await enqueueJob(tx, { kind: "email.send", payload: { email_id: id }, tenancy: { projectId, branchId: null } }, now);
  await record(tx, { type: "email.queued", projectId, branchId: null, data: { id } });
  return id;
}

/** The message and its job alone: due at the next timer or flush, as nothing announces them (for tests of the queue itself). */
export async function insertQueuedEmail(db: DbOrTx, projectId: string, email: OutgoingEmail, now: Date): Promise<string> {
  const id = await insertEmailRow(db, projectId, email, now);
  await insertJob(db, { kind: "email.send", payload: { email_id: id }, tenancy: { projectId, branchId: null } }, now);
  return id;
}

async function insertEmailRow(db: DbOrTx, projectId: string, email: OutgoingEmail, now: Date): Promise<string> {
  const [row] = await db
    .insert(sentEmails)
    .values(messageRow(projectId, email, now))
    .returning({ id: sentEmails.id });
  return row!.id;
}

/**
 * A message a bulk send did not send (the user has no address, or turned its category off), recorded so the
 * sent-mail list says so; without its bodies, and with no job.
 */
export async function recordSkippedEmail(db: DbOrTx, projectId: string, email: OutgoingEmail, reason: string, now: Date): Promise<void> {
  await db
    .insert(sentEmails)
    .values({ ...messageRow(projectId, { ...email, html: "", text: null }, now), status: "skipped", error: reason });
}

/** A message's row as written when it is queued or sent at once: due from `now` (the clock's time). */
function messageRow(projectId: string, email: OutgoingEmail, now: Date) {
  return {
    projectId,
    to: email.to,
    subject: email.subject,
    html: email.html,
    textBody: email.text ?? null,
    createdAt: now,
    nextAttemptAt: now,
  };
}

/** Seconds before attempt `attempts + 1`: 30 s, 2 min, 8 min, 32 min. */
export function retryDelaySeconds(attempts: number): number {
  return 30 * 4 ** (attempts - 1);
}

/** The `email.send` job's retries: MAX_SEND_ATTEMPTS in all, spaced by retryDelaySeconds. */
export const EMAIL_RETRY_POLICY: RetryPolicy = {
  maxAttempts: MAX_SEND_ATTEMPTS,
  backoffMillis: Array.from({ length: MAX_SEND_ATTEMPTS - 1 }, (_, i) => retryDelaySeconds(i + 1) * 1000),
};

/** The SMTP server a project's mail goes through, or null for the dev outbox. */
export function smtpFor(config: EmailConfig, shared: SmtpSettings | null): SmtpSettings | null {
  if (config.type === "standard") {
    return {
      host: config.host,
      port: config.port,
      username: config.username,
      password: config.password,
      senderEmail: config.sender_email,
      senderName: config.sender_name,
    };
  }
  return shared;
}

export class EmailQueue {
  constructor(
    private readonly db: Db,
    /** Runs the `email.send` jobs; this queue registers their handler with it. */
    private readonly jobs: JobRunner,
    private readonly projects: ProjectStore,
    private readonly shared: SmtpSettings | null,
    private readonly logger: Logger,
    /** When a message is due, and when a claim went stale (lib/clock.ts). */
    private readonly clock: Clock,
    /** Projects' own SMTP hosts may be private (operators' choice); the shared one is always trusted. */
    private readonly allowPrivateHosts = false,
    /** Passwords may go to hosts that are not loopback without TLS (LATCHKEY_SMTP_ALLOW_INSECURE_AUTH). */
    private readonly allowInsecureAuth = false,
    /** Failed attempts are counted here (GET /metrics). */
    private readonly metrics: Metrics | null = null,
  ) {
    jobs.register({ kind: "email.send", retry: EMAIL_RETRY_POLICY, leaseMillis: SEND_LEASE_MILLIS, handler: (job) => this.send(job) });
  }

  /** Messages waiting to be sent or being sent now, on every replica: read when metrics are scraped. */
  async depth(): Promise<number> {
    const [row] = await this.db
      .select({ n: sql<number>`count(*)::int` })
      .from(sentEmails)
      .where(sql`${sentEmails.status} in ('queued', 'sending')`);
    return Number(row?.n ?? 0);
  }

  /** The start-up check of the shared SMTP server: the warning it logged, or null. */
  sharedSmtpChecked: Promise<string | null> = Promise.resolve(null);

  /** Checks the shared SMTP server; the job runner sends (server.ts starts it). */
  start(): void {
    if (!this.shared) {
      this.logger.warn(
        "No shared SMTP server (STACK_EMAIL_HOST): e-mail of projects without their own goes to the dev outbox, logged but not delivered.",
      );
    } else {
      // In the background: a slow or silent SMTP server must not hold up the start.
      this.sharedSmtpChecked = warnIfSharedSmtpBroken(this.shared, this.allowInsecureAuth, this.logger);
    }
  }

  /** Sends what is due now, in the background (e.g. right after queueing). */
  kick(): void {
    this.jobs.kick();
  }

  /** Runs every job due now (e-mail and any other kind); resolves with how many attempts the run made. */
  flush(): Promise<number> {
    return this.jobs.flush();
  }

  /** One attempt of an `email.send` job: the message is marked being sent under the job's claim, then sent. */
  private async send(job: JobContext<"email.send">): Promise<void> {
    const [row] = await this.db
      .update(sentEmails)
      .set({ status: "sending", attempts: job.attempt, claimedAt: this.clock.date(), claimToken: job.claim })
      .where(and(eq(sentEmails.id, job.payload.email_id), sql`${sentEmails.status} in ('queued', 'sending')`))
      .returning();
    // Gone with its project, or already ended (a replica that sent it lost its claim before recording the job's end).
    if (!row) return;
    await this.deliver(row, { job });
  }

  /**
   * Sends one message at once, as the queue sends any, and answers how that
   * ended: a test send waits for its answer. The message has no job, so no
   * replica sends it again. `config` stands in
   * for the project's saved choice (a test may try one not saved yet), and a
   * failure is final: a later retry would go through the saved choice, not the
   * one tried, after the caller was told it failed.
   */
  async sendNow(projectId: string, email: OutgoingEmail, config?: EmailConfig): Promise<Pick<SentEmailRow, "id" | "status" | "error">> {
    const now = this.clock.date();
    const [row] = await this.db
      .insert(sentEmails)
      .values({
        ...messageRow(projectId, email, now),
        status: "sending",
        attempts: 1,
        claimedAt: now,
        claimToken: randomUUID(),
      })
      .returning();
    await this.deliver(row!, { config });
    const [after] = await this.db
      .select({ id: sentEmails.id, status: sentEmails.status, error: sentEmails.error })
      .from(sentEmails)
      .where(eq(sentEmails.id, row!.id));
    return after!;
  }

  /** `job`: the attempt this is, which throws to be retried; none for a message sent once (sendNow). */
  private async deliver(row: SentEmailRow, { config, job }: { config?: EmailConfig; job?: JobContext<"email.send"> }): Promise<void> {
    let smtp: SmtpSettings | null;
    let fromName: string | null;
    let connectTo: string | undefined;
    let production: boolean;
    try {
      const project = await this.projects.get(row.projectId);
      if (!project) {
        await this.finish(row, { status: "failed", error: "The project no longer exists." });
        if (job) throw new FinalJobError("The project no longer exists.");
        return;
      }
      production = project.isProductionMode;
      const emailConfig = config ?? project.config.email_config;
      smtp = smtpFor(emailConfig, this.shared);
      const own = emailConfig.type === "standard";
      // On the shared server, mail is sent in the project's name.
      fromName = own ? (smtp?.senderName ?? null) : project.displayName;
      if (own && smtp) connectTo = await resolveSmtpHost(smtp.host, this.allowPrivateHosts);
    } catch (error) {
      // The project's absence, recorded above, is final already.
      if (error instanceof FinalJobError) throw error;
      return this.retryOrFail(row, error, job);
    }
    if (!smtp) {
      if (production) {
        // Real users' live links must not sit readable anywhere: the mail is listed, its body dropped.
        this.logger.warn(
          { projectId: row.projectId, to: row.to, subject: row.subject },
          "dev outbox: e-mail of a project in production mode not sent (no SMTP server configured); its body is not kept",
        );
      } else {
        this.logger.info(
          { projectId: row.projectId, to: row.to, subject: row.subject, text: row.textBody ?? undefined },
          "dev outbox: e-mail not sent (no SMTP server configured)",
        );
      }
      return this.finish(row, { status: OUTBOX_STATUS, error: null, sentAt: this.clock.date() }, production);
    }
    try {
      await withDeadline(
        sendSmtp(
          smtp,
          { to: row.to, subject: row.subject, html: row.html, text: row.textBody },
          fromName,
          connectTo,
          this.allowInsecureAuth,
        ),
        SEND_DEADLINE_MILLIS,
      );
    } catch (error) {
      return this.retryOrFail(row, error, job);
    }
    // Outside the try: a failure to record a send must not send the message again.
    await this.finish(row, { status: "sent", error: null, sentAt: this.clock.date() });
  }

  /** Records the failure; throws for the job runner to retry (or end) the job. */
  private async retryOrFail(row: SentEmailRow, error: unknown, job: JobContext<"email.send"> | undefined): Promise<void> {
    // The admins see what went wrong in their list; the log keeps the server's own words.
    const message = smtpFailureSummary(error);
    const raw = error instanceof Error ? error.message : String(error);
    // A 5xx answer is the SMTP server's final word, and a private host stays private: trying again would not change them.
    const permanent =
      error instanceof PrivateSmtpHostError ||
      (typeof (error as { responseCode?: unknown }).responseCode === "number" && (error as { responseCode: number }).responseCode >= 500);
    this.logger.warn({ emailId: row.id, attempts: row.attempts, error: raw }, "e-mail delivery failed");
    const retryAt = job && !permanent ? job.retryAt : null;
    this.metrics?.emailDeliveryFailures.inc({ final: String(retryAt === null) });
    if (retryAt === null) {
      await this.finish(row, { status: "failed", error: message });
      if (job) throw new FinalJobError(message, { cause: error });
      return;
    }
    await this.finish(row, { status: "queued", error: message, nextAttemptAt: retryAt });
    throw new Error(message, { cause: error });
  }

  /**
   * Records the outcome, if this process still holds the claim. Sent or failed
   * mail drops its bodies, which may hold live codes; outbox mail, never
   * delivered, keeps them for its admins for a while (outbox.ts), unless its
   * project is in production mode.
   */
  private async finish(
    row: SentEmailRow,
    update: { status: string; error: string | null; sentAt?: Date; nextAttemptAt?: Date },
    production = false,
  ): Promise<void> {
    const dropBodies = update.status !== "queued" && (update.status !== OUTBOX_STATUS || production);
    await this.db
      .update(sentEmails)
      .set({ ...update, claimedAt: null, claimToken: null, ...(dropBodies ? { html: "", textBody: null } : {}) })
      .where(and(eq(sentEmails.id, row.id), eq(sentEmails.claimToken, row.claimToken!)));
  }
}

/**
 * A message sent at once (sendNow) has no job: if its server stops mid-send, nothing would ever end it and it
 * would stay "sending". Past the lease, a message still being sent that no live job will take up again is recorded
 * as failed, with its bodies dropped as any failure's are. Returns how many.
 */
export async function failInterruptedSends(db: Db, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - SEND_LEASE_MILLIS);
  // tenancy: a sweep across all projects; each message's job is its own, found by the message's id
  const rows = await queryRows(
    db,
    sql`
    update ${sentEmails} set status = 'failed', error = ${INTERRUPTED_SEND_ERROR}, claimed_at = null, claim_token = null,
      html = '', text_body = null
    where status = 'sending' and claimed_at < ${cutoff.toISOString()}::timestamptz
      and not exists (
        select 1 from ${jobs} where ${jobs.kind} = 'email.send' and ${jobs.status} in ('queued', 'running')
          and ${jobs.payload}->>'email_id' = ${sentEmails.id}::text
      )
    returning 1 as one`,
  );
  return rows.length;
}

export const INTERRUPTED_SEND_ERROR = "The server stopped while sending this message; it was not sent again.";

/** Rejects when the promise takes longer than `millis`. */
function withDeadline<T>(promise: Promise<T>, millis: number): Promise<T> {
  let timer: NodeJS.Timeout;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new SmtpDeadlineError(millis / 1000)), millis);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}
