/**
 * The overview's e-mail numbers, from the project's sent e-mails
 * (db/schema/emails.ts; they belong to the project, not to a branch).
 * Delivered means sent, or kept in the development outbox; bounces and clicks
 * are not tracked, so their rates are 0.
 */
import { sql } from "drizzle-orm";
import type { MetricsJson } from "@latchkey/shared";
import type { DbOrTx } from "../../db/connect.ts";
import { queryRows } from "../../db/rows.ts";
import type { MetricsWindow } from "./window.ts";

const RECENT_EMAILS = 10;
const DELIVERED = ["sent", "outbox"];
const IN_PROGRESS = ["queued", "sending"];
const FAILED = "failed";

type EmailOverview = MetricsJson["email_overview"];

export async function emailOverview(db: DbOrTx, projectId: string, window: MetricsWindow): Promise<EmailOverview> {
  const byStatus = await queryRows<{ status: string; n: number }>(
    db,
    sql`select e.status as "status", count(*)::int as "n" from sent_emails e where e.project_id = ${projectId} group by e.status order by 1`,
  );
  const daily = await queryRows<{ date: string; ok: number; error: number; in_progress: number }>(
    db,
    sql`
    select to_char(d.day, 'YYYY-MM-DD') as "date",
      (count(e.id) filter (where e.status in ${DELIVERED}))::int as "ok",
      (count(e.id) filter (where e.status = ${FAILED}))::int as "error",
      (count(e.id) filter (where e.status in ${IN_PROGRESS}))::int as "in_progress"
    from (select generate_series(${window.first}::date, ${window.today}::date, interval '1 day')::date as day) as d
    left join sent_emails e on e.project_id = ${projectId}
      and e.created_at >= (d.day)::timestamp at time zone 'UTC' and e.created_at < (d.day + 1)::timestamp at time zone 'UTC'
    group by d.day
    order by d.day`,
  );
  const recent = await queryRows<{ id: string; status: string; subject: string; created_at_millis: number }>(
    db,
    sql`
    select e.id as "id", e.status as "status", e.subject as "subject",
      (extract(epoch from e.created_at) * 1000)::float8 as "created_at_millis"
    from sent_emails e where e.project_id = ${projectId}
    order by e.created_at desc, e.id desc limit ${RECENT_EMAILS}`,
  );
  const count = (statuses: string[]) => byStatus.filter((row) => statuses.includes(row.status)).reduce((sum, row) => sum + row.n, 0);
  const delivered = count(DELIVERED);
  const failed = count([FAILED]);
  const total = byStatus.reduce((sum, row) => sum + row.n, 0);
  return {
    emails_by_status: Object.fromEntries(byStatus.map((row) => [row.status, row.n])),
    total_emails: total,
    daily_emails: daily.map((row) => ({ date: row.date, activity: row.ok + row.error + row.in_progress })),
    daily_emails_by_status: daily,
    emails_sent: delivered,
    recent_emails: recent.map((row) => ({ ...row, id: String(row.id), created_at_millis: Math.round(Number(row.created_at_millis)) })),
    deliverability_status: { delivered, bounced: 0, error: failed, in_progress: count(IN_PROGRESS) },
    deliverability_rate: delivered + failed === 0 ? 0 : delivered / (delivered + failed),
    bounce_rate: 0,
    click_rate: 0,
  };
}
