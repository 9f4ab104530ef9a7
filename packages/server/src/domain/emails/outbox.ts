/**
 * The dev outbox: mail a project sent while no SMTP server existed (its own
 * unset and no shared one). Such mail was never delivered, so nobody could
 * read it; its admins may, in the dashboard, to click a sign-in link while
 * developing. Only this mail keeps its rendered bodies — delivered or failed
 * mail keeps none (it may hold live codes) — and only for a while: the last
 * OUTBOX_KEPT_PER_PROJECT of a project, for OUTBOX_KEPT_MILLIS, after which
 * housekeeping empties them.
 */
import { and, desc, eq, gte, ne, sql } from "drizzle-orm";
import type { Db, DbOrTx } from "../../db/connect.ts";
import { queryRows } from "../../db/rows.ts";
import { sentEmails, type SentEmailRow } from "../../db/schema/index.ts";

export const OUTBOX_STATUS = "outbox";
export const OUTBOX_KEPT_MILLIS = 24 * 3600 * 1000;
export const OUTBOX_KEPT_PER_PROJECT = 100;

/** The project's outbox mail that still has its bodies, newest first. */
export async function outboxEmails(db: DbOrTx, projectId: string, now: Date): Promise<SentEmailRow[]> {
  const cutoff = new Date(now.getTime() - OUTBOX_KEPT_MILLIS);
  return db
    .select()
    .from(sentEmails)
    .where(
      and(
        eq(sentEmails.projectId, projectId),
        eq(sentEmails.status, OUTBOX_STATUS),
        ne(sentEmails.html, ""),
        gte(sentEmails.sentAt, cutoff),
      ),
    )
    .orderBy(desc(sentEmails.createdAt))
    .limit(OUTBOX_KEPT_PER_PROJECT);
}

/** Empties the bodies of outbox mail past its day or beyond each project's last 100; returns how many. */
export async function dropOldOutboxBodies(db: Db, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - OUTBOX_KEPT_MILLIS);
  const rows = await queryRows(
    db,
    sql`
    update ${sentEmails} set html = '', text_body = null
    where id in (
      select id from (
        select id, sent_at, row_number() over (partition by project_id order by created_at desc) as rank
        from ${sentEmails} where status = ${OUTBOX_STATUS} and html <> ''
      ) kept
      where kept.sent_at < ${cutoff.toISOString()}::timestamptz or kept.rank > ${OUTBOX_KEPT_PER_PROJECT}
    )
    returning 1 as one`,
  );
  return rows.length;
}
