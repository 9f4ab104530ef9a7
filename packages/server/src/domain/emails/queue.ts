/**
 * The e-mail queue, kept in PostgreSQL so nothing is lost on a restart and
 * any replica may send. A worker claims due messages in a short statement
 * (no transaction is held open across the network), sends each through the
 * project's SMTP server or the shared one, and records the outcome: sent,
 * retried later with back-off, or failed with the error. With no SMTP server
 * at all (development), messages go to the dev outbox: logged and listed.
 */
import { sql } from "drizzle-orm";
import type { Logger } from "pino";
import type { Db, DbOrTx } from "../../db/connect.ts";
import { sentEmails } from "../../db/schema/index.ts";
import type { EmailConfig } from "../projects/config.ts";
import type { ProjectStore } from "../projects/projects.ts";
import { sendSmtp, type OutgoingEmail, type SmtpSettings } from "./smtp.ts";

export const MAX_SEND_ATTEMPTS = 5;
const CLAIM_BATCH = 10;
const POLL_MILLIS = 2000;
/** A claim older than this belongs to a replica that stopped mid-send: the message is due again. */
const STALE_CLAIM_SECONDS = 300;

export type SentEmailRow = typeof sentEmails.$inferSelect;

/** Queues a message; it is sent after the surrounding transaction commits. */
export async function enqueueEmail(db: DbOrTx, projectId: string, email: OutgoingEmail): Promise<string> {
  const [row] = await db
    .insert(sentEmails)
    .values({ projectId, to: email.to, subject: email.subject, html: email.html, textBody: email.text ?? null })
    .returning({ id: sentEmails.id });
  return row!.id;
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
  #closed = false;

  constructor(
    private readonly db: Db,
    private readonly projects: ProjectStore,
    private readonly shared: SmtpSettings | null,
    private readonly logger: Logger,
  ) {}

  /** Polls for due messages until closed (other replicas' messages and retries included). */
  start(): void {
    this.#timer = setInterval(() => void this.kick(), POLL_MILLIS).unref();
  }

  /** Sends what is due now, in the background (e.g. right after queueing). */
  kick(): void {
    if (this.#closed) return;
    void this.flush().catch((error: unknown) => this.logger.error({ err: error }, "e-mail queue run failed"));
  }

  /** Sends everything due now; resolves with how many messages were handled. */
  async flush(): Promise<number> {
    // One run at a time per process; a kick during a run waits for the next one.
    while (this.#running) await this.#running.catch(() => 0);
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
    for (;;) {
      const batch = await this.claim();
      if (batch.length === 0) return handled;
      for (const row of batch) await this.deliver(row);
      handled += batch.length;
    }
  }

  private async claim(): Promise<SentEmailRow[]> {
    const rows = await this.db.execute(sql`
      update sent_emails set status = 'sending', claimed_at = now()
      where id in (
        select id from sent_emails
        where (status = 'queued' and next_attempt_at <= now())
           or (status = 'sending' and claimed_at < now() - make_interval(secs => ${STALE_CLAIM_SECONDS}))
        order by next_attempt_at
        limit ${CLAIM_BATCH}
        for update skip locked
      )
      returning id`);
    const ids = (Array.isArray(rows) ? rows : (rows as { rows: { id: string }[] }).rows).map((r) => (r as { id: string }).id);
    if (ids.length === 0) return [];
    return this.db.select().from(sentEmails).where(sql`${sentEmails.id} in ${ids}`);
  }

  private async deliver(row: SentEmailRow): Promise<void> {
    const project = await this.projects.get(row.projectId);
    if (!project) return this.finish(row, { status: "failed", error: "The project no longer exists." });
    const smtp = smtpFor(project.config.email_config, this.shared);
    const email = { to: row.to, subject: row.subject, html: row.html, text: row.textBody };
    if (!smtp) {
      this.logger.info({ projectId: row.projectId, to: row.to, subject: row.subject, text: row.textBody ?? undefined }, "dev outbox: e-mail not sent (no SMTP server configured)");
      return this.finish(row, { status: "outbox", error: null, sentAt: new Date() });
    }
    // On the shared server, mail is sent in the project's name.
    const fromName = project.config.email_config.type === "standard" ? smtp.senderName : project.displayName;
    try {
      await sendSmtp(smtp, email, fromName);
      await this.finish(row, { status: "sent", error: null, sentAt: new Date() });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const attempts = row.attempts + 1;
      this.logger.warn({ emailId: row.id, attempts, error: message }, "e-mail delivery failed");
      if (attempts >= MAX_SEND_ATTEMPTS) return this.finish(row, { status: "failed", error: message, attempts });
      await this.finish(row, {
        status: "queued",
        error: message,
        attempts,
        nextAttemptAt: new Date(Date.now() + retryDelaySeconds(attempts) * 1000),
      });
    }
  }

  private async finish(
    row: SentEmailRow,
    update: { status: string; error: string | null; attempts?: number; sentAt?: Date; nextAttemptAt?: Date },
  ): Promise<void> {
    await this.db
      .update(sentEmails)
      .set({ ...update, claimedAt: null })
      .where(sql`${sentEmails.id} = ${row.id}`);
  }
}
