/**
 * Sending one message to many users (POST /emails/send-email): each named
 * user gets their own copy at their primary e-mail, unless they turned the
 * message's category off. Every message is composed first (rendering may
 * fail, and then nothing is sent), then all are queued in one transaction, so
 * a request queues mail for everyone or for no one.
 */
import type { SendEmailResultJson } from "@latchkey/shared";
import type { DbOrTx } from "../../../db/connect.ts";
import type { Services } from "../../../services.ts";
import type { Tenancy } from "../../../db/tenancy.ts";
import { enqueueEmail } from "../queue.ts";
import type { NotificationCategory } from "./preferences.ts";
import { loadRecipients, type Audience, type Recipient } from "./recipients.ts";
import { unsubscribeLink } from "./unsubscribe.ts";

export interface ComposedEmail {
  subject: string;
  html: string;
  text: string | null;
}

export type Reachable = Recipient & { primaryEmail: string };

export interface BulkSend {
  tenancy: Tenancy;
  category: NotificationCategory;
  audience: Audience;
  /** The message for one user; `unsubscribeLink` is null for mail that cannot be turned off. */
  compose(recipient: Reachable, unsubscribeLink: string | null): Promise<ComposedEmail> | ComposedEmail;
  /** Runs in the queueing transaction when at least one message was queued (e.g. marks a draft sent). */
  afterQueued?(tx: DbOrTx): Promise<void>;
}

export async function sendToUsers(services: Services, send: BulkSend): Promise<SendEmailResultJson[]> {
  const recipients = await loadRecipients(services.db, send.tenancy, send.category, send.audience);
  const results: SendEmailResultJson[] = [];
  const outgoing: { to: string; email: ComposedEmail }[] = [];
  for (const r of recipients) {
    if (r.primaryEmail === null) {
      results.push({ user_id: r.userId, status: "skipped", reason: "no_primary_email" });
    } else if (r.optedOut) {
      results.push({ user_id: r.userId, user_email: r.primaryEmail, status: "skipped", reason: "notification_category_disabled" });
    } else {
      const reachable: Reachable = { ...r, primaryEmail: r.primaryEmail };
      const link = unsubscribeLink(services.config.apiUrl, services.config.serverSecret, send.category, {
        ...send.tenancy,
        userId: r.userId,
      });
      outgoing.push({ to: r.primaryEmail, email: await send.compose(reachable, link) });
      results.push({ user_id: r.userId, user_email: r.primaryEmail, status: "queued" });
    }
  }
  if (outgoing.length > 0) {
    await services.events.transaction(services.db, async (tx) => {
      const now = services.clock.date();
      for (const { to, email } of outgoing) {
        await enqueueEmail(tx, send.tenancy.projectId, { to: [to], subject: email.subject, html: email.html, text: email.text }, now);
      }
      await send.afterQueued?.(tx);
    });
  }
  return results;
}
