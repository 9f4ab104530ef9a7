/**
 * The e-mail queue, kept in PostgreSQL so nothing is lost on a restart and
 * any replica may send. A worker claims one due message at a time in a short
 * statement (no transaction is held open across the network), sends it through the
 * project's SMTP server or the shared one, and records the outcome: sent,
 * retried later with back-off, or failed with the error. With no SMTP server
 * at all (development), messages go to the dev outbox: logged and listed.
 */
import { and, eq, sql } from "drizzle-orm";
import { randomUUID } from "node:crypto";
import type { Logger } from "pino";
import type { Db, DbOrTx } from "../../db/connect.ts";
import { record, type EventTx } from "../../events/transaction.ts";
import { sentEmails, type SentEmailRow } from "../../db/schema/index.ts";
import type { EmailConfig } from "../projects/config.ts";
import type { ProjectStore } from "../projects/projects.ts";
import type { Clock } from "../../lib/clock.ts";
import type { Metrics } from "../../lib/metrics.ts";
import { sendSmtp, type OutgoingEmail, type SmtpSettings } from "./smtp.ts";
import { OUTBOX_STATUS } from "./outbox.ts";
import { warnIfSharedSmtpBroken } from "./smtp-check.ts";
import { PrivateSmtpHostError, SmtpDeadlineError, resolveSmtpHost, smtpFailureSummary } from "./smtp-guard.ts";

export const MAX_SEND_ATTEMPTS = 5;
const POLL_MILLIS = 2000;
/** One send may take this long in all; well under the stale-claim age, so no replica takes over a live send. */
const SEND_DEADLINE_MILLIS = 60_000;
/** A claim older than this belongs to a replica that stopped mid-send: the message is due again. */
const STALE_CLAIM_SECONDS = 300;

/**
 * Queues a message; it is sent after the surrounding transaction commits (its event kicks the queue: server.ts).
 * `now` is the clock's time (lib/clock.ts): the message is due from then.
 */
export async function enqueueEmail(tx: EventTx, projectId: string, email: OutgoingEmail, now: Date): Promise<string> {
  const id = await insertQueuedEmail(tx, projectId, email, now);
  await record(tx, { type: "email.queued", projectId, branchId: null, data: { id } });
  return id;
}

/** The queue's row alone: due at the next poll or flush, as no event announces it (for tests of the queue itself). */
export async function insertQueuedEmail(db: DbOrTx, projectId: string, email: OutgoingEmail, now: Date): Promise<string> {
  const [row] = await db
    .insert(sentEmails)
    .values(messageRow(projectId, email, now))
    .returning({ id: sentEmails.id });
  return row!.id;
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
  #timer: NodeJS.Timeout | null = null;
  #running: Promise<number> | null = null;
  #again = false;
  #closed = false;

  constructor(
    private readonly db: Db,
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
  ) {}

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

  /** Polls for due messages until closed (other replicas' messages and retries included). */
  start(): void {
    if (!this.shared) {
      this.logger.warn(
        "No shared SMTP server (STACK_EMAIL_HOST): e-mail of projects without their own goes to the dev outbox, logged but not delivered.",
      );
    } else {
      // In the background: a slow or silent SMTP server must not hold up the start.
      this.sharedSmtpChecked = warnIfSharedSmtpBroken(this.shared, this.allowInsecureAuth, this.logger);
    }
    this.#timer = setInterval(() => this.kick(), POLL_MILLIS).unref();
  }

  /** Sends what is due now, in the background (e.g. right after queueing). */
  kick(): void {
    if (this.#closed) return;
    void this.flush().catch((error: unknown) => this.logger.error({ err: error }, "e-mail queue run failed"));
  }

  /** Sends everything due now; resolves with how many messages this run handled. */
  async flush(): Promise<number> {
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
    }
  }

  async close(): Promise<void> {
    this.#closed = true;
    if (this.#timer) clearInterval(this.#timer);
    await this.#running?.catch(() => 0);
  }

  private async drain(): Promise<number> {
    let handled = 0;
    do {
      this.#again = false;
      // One message per claim: a claim never waits behind other sends, so it
      // is finished long before another replica may take it over.
      for (let row = await this.claim(); row && !this.#closed; row = await this.claim()) {
        await this.deliver(row);
        handled += 1;
      }
    } while (this.#again && !this.#closed);
    return handled;
  }

  /**
   * Sends one message at once, as the queue sends any, and answers how that
   * ended: a test send waits for its answer. The message is claimed from its
   * first moment, so no poll on any replica sends it too. `config` stands in
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
    await this.deliver(row!, { config, once: true });
    const [after] = await this.db
      .select({ id: sentEmails.id, status: sentEmails.status, error: sentEmails.error })
      .from(sentEmails)
      .where(eq(sentEmails.id, row!.id));
    return after!;
  }

  /** Claims the next due message (or one whose claim went stale), counting the attempt. */
  private async claim(): Promise<SentEmailRow | null> {
    const token = randomUUID();
    // The clock's time, not the database's now(): a test that moves its clock makes retries due and claims stale.
    const now = this.clock.date().toISOString();
    const result = await this.db.execute(sql`
      update sent_emails set status = 'sending', claimed_at = ${now}::timestamptz, claim_token = ${token}, attempts = attempts + 1
      where id = (
        select id from sent_emails
        where (status = 'queued' and next_attempt_at <= ${now}::timestamptz)
           or (status = 'sending' and claimed_at < ${now}::timestamptz - make_interval(secs => ${STALE_CLAIM_SECONDS}))
        order by next_attempt_at
        limit 1
        for update skip locked
      )
      returning id`);
    // postgres.js answers with the rows; PGlite with { rows }.
    const rows = (Array.isArray(result) ? result : (result as unknown as { rows: { id: string }[] }).rows) as { id: string }[];
    if (rows.length === 0) return null;
    const [row] = await this.db.select().from(sentEmails).where(eq(sentEmails.id, rows[0]!.id));
    return row ?? null;
  }

  private async deliver(row: SentEmailRow, { config, once = false }: { config?: EmailConfig; once?: boolean } = {}): Promise<void> {
    let smtp: SmtpSettings | null;
    let fromName: string | null;
    let connectTo: string | undefined;
    let production: boolean;
    try {
      const project = await this.projects.get(row.projectId);
      if (!project) return await this.finish(row, { status: "failed", error: "The project no longer exists." });
      production = project.isProductionMode;
      const emailConfig = config ?? project.config.email_config;
      smtp = smtpFor(emailConfig, this.shared);
      const own = emailConfig.type === "standard";
      // On the shared server, mail is sent in the project's name.
      fromName = own ? (smtp?.senderName ?? null) : project.displayName;
      if (own && smtp) connectTo = await resolveSmtpHost(smtp.host, this.allowPrivateHosts);
    } catch (error) {
      return this.retryOrFail(row, error, once);
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
      return this.retryOrFail(row, error, once);
    }
    // Outside the try: a failure to record a send must not send the message again.
    await this.finish(row, { status: "sent", error: null, sentAt: this.clock.date() });
  }

  private async retryOrFail(row: SentEmailRow, error: unknown, once: boolean): Promise<void> {
    // The admins see what went wrong in their list; the log keeps the server's own words.
    const message = smtpFailureSummary(error);
    const raw = error instanceof Error ? error.message : String(error);
    // A 5xx answer is the SMTP server's final word, and a private host stays private: trying again would not change them.
    const permanent =
      error instanceof PrivateSmtpHostError ||
      (typeof (error as { responseCode?: unknown }).responseCode === "number" && (error as { responseCode: number }).responseCode >= 500);
    this.logger.warn({ emailId: row.id, attempts: row.attempts, error: raw }, "e-mail delivery failed");
    const final = once || permanent || row.attempts >= MAX_SEND_ATTEMPTS;
    this.metrics?.emailDeliveryFailures.inc({ final: String(final) });
    if (final) return this.finish(row, { status: "failed", error: message });
    await this.finish(row, {
      status: "queued",
      error: message,
      nextAttemptAt: new Date(this.clock.now() + retryDelaySeconds(row.attempts) * 1000),
    });
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

/** Rejects when the promise takes longer than `millis`. */
function withDeadline<T>(promise: Promise<T>, millis: number): Promise<T> {
  let timer: NodeJS.Timeout;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new SmtpDeadlineError(millis / 1000)), millis);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}
