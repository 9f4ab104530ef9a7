import type { OutboxEmailJson, SentEmailJson } from "@latchkey/shared";
import type { SentEmailRow } from "../../db/schema/index.ts";

export function sentEmailView(row: SentEmailRow): SentEmailJson {
  return {
    id: row.id,
    to: row.to,
    subject: row.subject,
    sent_at_millis: row.sentAt?.getTime() ?? null,
    error: row.status === "sent" || row.status === "outbox" ? null : row.error,
    status: row.status === "sending" ? "queued" : (row.status as SentEmailJson["status"]),
  };
}

export function outboxEmailView(row: SentEmailRow): OutboxEmailJson {
  return { id: row.id, to: row.to, subject: row.subject, sent_at_millis: row.sentAt!.getTime(), html: row.html, text: row.textBody };
}
