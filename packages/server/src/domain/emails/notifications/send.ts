/**
 * Sending one message to many users (POST /emails/send-email): each named
 * user gets their own copy at their primary e-mail, unless they have none or
 * turned the message's category off; those copies are recorded as skipped,
 * with the reason, in the sent-mail list. Every message is composed first
 * (rendering may fail, and then nothing is sent), then all are queued or
 * recorded in one transaction, so a request queues mail for everyone or for
 * no one. The answer names the recipients only: what became of each copy is
 * in the sent-mail list.
 */
import type { SendEmailResultJson } from "@latchkey/shared";
import type { DbOrTx } from "../../../db/connect.ts";
import type { Services } from "../../../services.ts";
import type { Tenancy } from "../../../db/tenancy.ts";
import { enqueueEmail, recordSkippedEmail } from "../queue.ts";
import type { NotificationCategory } from "./preferences.ts";
import { loadRecipients, type Audience, type Recipient } from "./recipients.ts";
import { unsubscribeLink } from "./unsubscribe.ts";

export interface ComposedEmail {
  subject: string;
  html: string;
  text: string | null;
}

export const SKIPPED_NO_PRIMARY_EMAIL = "The user has no primary e-mail address.";
export const SKIPPED_CATEGORY_DISABLED = "The user turned this notification category off.";

export interface BulkSend {
  tenancy: Tenancy;
  category: NotificationCategory;
  audience: Audience;
  /** The message for one user (also for a skipped one: the list shows its subject); `unsubscribeLink` is null for mail that cannot be turned off. */
  compose(recipient: Recipient, unsubscribeLink: string | null): Promise<ComposedEmail> | ComposedEmail;
  /** Runs in the queueing transaction when at least one message was queued (e.g. marks a draft sent). */
  afterQueued?(tx: DbOrTx): Promise<void>;
}

export async function sendToUsers(services: Services, send: BulkSend): Promise<SendEmailResultJson[]> {
  const recipients = await loadRecipients(services.db, send.tenancy, send.category, send.audience);
  const outgoing: { to: string[]; email: ComposedEmail; skipped: string | null }[] = [];
  for (const r of recipients) {
    const skipped = r.primaryEmail === null ? SKIPPED_NO_PRIMARY_EMAIL : r.optedOut ? SKIPPED_CATEGORY_DISABLED : null;
    const link =
      skipped === null
        ? unsubscribeLink(services.config.apiUrl, services.config.serverSecret, send.category, { ...send.tenancy, userId: r.userId })
        : null;
    outgoing.push({ to: r.primaryEmail === null ? [] : [r.primaryEmail], email: await send.compose(r, link), skipped });
  }
  if (outgoing.length > 0) {
    await services.events.transaction(services.db, async (tx) => {
      const now = services.clock.date();
      const { projectId } = send.tenancy;
      for (const { to, email, skipped } of outgoing) {
        const message = { to, subject: email.subject, html: email.html, text: email.text };
        if (skipped === null) await enqueueEmail(tx, projectId, message, now);
        else await recordSkippedEmail(tx, projectId, message, skipped, now);
      }
      if (outgoing.some((o) => o.skipped === null)) await send.afterQueued?.(tx);
    });
  }
  return recipients.map((r) => ({ user_id: r.userId }));
}
