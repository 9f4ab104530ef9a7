/**
 * The overview's numbers about users, each part one query computed by the
 * database: counts, sign-ups and active users per UTC day, countries and
 * sign-in methods, in the request's project and branch.
 */
import { sql, type SQL } from "drizzle-orm";
import type { DbOrTx } from "../../db/connect.ts";
import { queryRows } from "../../db/rows.ts";
import { sqlInTenancy, type Tenancy } from "../../db/tenancy.ts";
import type { MetricsWindow } from "./window.ts";

/** The tenancy counted, and whether anonymous users count. */
export interface MetricsScope extends Tenancy {
  includeAnonymous: boolean;
}

export interface DataPoint {
  date: string;
  activity: number;
}

/** A condition on the rows aliased `alias` (users or activity days): anonymous ones only when asked for. */
function anonymousFilter(scope: MetricsScope, alias: string): SQL {
  return scope.includeAnonymous ? sql`` : sql` and not ${sql.identifier(alias)}.is_anonymous`;
}

/** The window's days as a relation `d(day)`, to left-join counts onto so that empty days count 0. */
function windowDays(window: MetricsWindow): SQL {
  return sql`(select generate_series(${window.first}::date, ${window.today}::date, interval '1 day')::date as day) as d`;
}

export interface UserCounts {
  /** All users in scope (anonymous ones only when included). */
  total: number;
  verified: number;
  unverified: number;
  anonymous: number;
  teams: number;
  monthlyActive: number;
}

/** Verified and unverified count users who are not anonymous, by their primary e-mail. */
export async function userCounts(db: DbOrTx, scope: MetricsScope, window: MetricsWindow): Promise<UserCounts> {
  const [row] = await queryRows<{ [K in keyof UserCounts]: number }>(
    db,
    sql`
    select
      (count(*) filter (where ${scope.includeAnonymous ? sql`true` : sql`not u.is_anonymous`}))::int as "total",
      (count(*) filter (where not u.is_anonymous and c.is_verified))::int as "verified",
      (count(*) filter (where not u.is_anonymous and c.is_verified is not true))::int as "unverified",
      (count(*) filter (where u.is_anonymous))::int as "anonymous",
      (select count(*) from teams t where ${sqlInTenancy("t", scope)})::int as "teams",
      (select count(*) from (
        select distinct a.user_id from user_activity_days a
        where ${sqlInTenancy("a", scope)}${anonymousFilter(scope, "a")} and a.day between ${window.monthFirst}::date and ${window.today}::date
      ) as active)::int as "monthlyActive"
    from users u
    left join contact_channels c on c.user_id = u.id and c.is_primary and c.type = 'email'
    where ${sqlInTenancy("u", scope)}`,
  );
  return row!;
}

/** Sign-ups per UTC day (not cumulative). */
export async function dailySignUps(db: DbOrTx, scope: MetricsScope, window: MetricsWindow): Promise<DataPoint[]> {
  return queryRows<{ date: string; activity: number }>(
    db,
    sql`
    select to_char(d.day, 'YYYY-MM-DD') as "date", coalesce(s.n, 0)::int as "activity"
    from ${windowDays(window)}
    left join (
      select (u.signed_up_at at time zone 'UTC')::date as day, count(*) as n
      from users u
      where ${sqlInTenancy("u", scope)}${anonymousFilter(scope, "u")} and u.signed_up_at >= (${window.first}::date)::timestamp at time zone 'UTC'
      group by 1
    ) s on s.day = d.day
    order by d.day`,
  );
}

export interface DailyActivity {
  total: DataPoint[];
  /** Active on the day they signed up. */
  new: DataPoint[];
  /** Active the day before too. */
  retained: DataPoint[];
  /** Neither: back after a day or more away. */
  reactivated: DataPoint[];
}

/**
 * Distinct users active per UTC day (user_activity_days holds one row per
 * user and day, with how they came and whether they were anonymous that day).
 */
export async function dailyActiveUsers(db: DbOrTx, scope: MetricsScope, window: MetricsWindow): Promise<DailyActivity> {
  const rows = await queryRows<{ date: string; total: number; new: number; retained: number; reactivated: number }>(
    db,
    sql`
    select to_char(d.day, 'YYYY-MM-DD') as "date",
      coalesce(a.total, 0)::int as "total",
      coalesce(a.new, 0)::int as "new",
      coalesce(a.retained, 0)::int as "retained",
      coalesce(a.reactivated, 0)::int as "reactivated"
    from ${windowDays(window)}
    left join (
      select a.day,
        count(*) as total,
        count(*) filter (where a.kind = 'new') as new,
        count(*) filter (where a.kind = 'retained') as retained,
        count(*) filter (where a.kind = 'reactivated') as reactivated
      from user_activity_days a
      where ${sqlInTenancy("a", scope)}${anonymousFilter(scope, "a")} and a.day between ${window.first}::date and ${window.today}::date
      group by a.day
    ) a on a.day = d.day
    order by d.day`,
  );
  const series = (key: "total" | "new" | "retained" | "reactivated") => rows.map((row) => ({ date: row.date, activity: row[key] }));
  return { total: series("total"), new: series("new"), retained: series("retained"), reactivated: series("reactivated") };
}

/** Users per country code (users without one are left out). */
export async function usersByCountry(db: DbOrTx, scope: MetricsScope): Promise<Record<string, number>> {
  const rows = await queryRows<{ country: string; n: number }>(
    db,
    sql`
    select u.country_code as "country", count(*)::int as "n"
    from users u
    where ${sqlInTenancy("u", scope)}${anonymousFilter(scope, "u")} and u.country_code is not null
    group by u.country_code
    order by 2 desc, 1`,
  );
  return Object.fromEntries(rows.map((row) => [row.country, row.n]));
}

/**
 * How users can sign in, as their accounts record it: each user counts once
 * for each method they have (a password, one-time codes, passkeys, each OAuth
 * provider they sign in with), most used first.
 */
export async function signInMethods(db: DbOrTx, scope: MetricsScope): Promise<{ method: string; count: number }[]> {
  return queryRows<{ method: string; count: number }>(
    db,
    sql`
    with u as (
      select u.id, u.password_hash, u.otp_auth_enabled, u.passkey_auth_enabled from users u where ${sqlInTenancy("u", scope)}${anonymousFilter(scope, "u")}
    ), methods as (
      select 'password' as method, count(*) as n from u where u.password_hash is not null
      union all select 'otp', count(*) from u where u.otp_auth_enabled
      union all select 'passkey', count(*) from u where u.passkey_auth_enabled
      union all
      select o.provider_config_id, count(*) from oauth_accounts o join u on u.id = o.user_id
      where ${sqlInTenancy("o", scope)} and o.allow_sign_in
      group by o.provider_config_id
    )
    select method as "method", n::int as "count" from methods where n > 0 order by n desc, method`,
  );
}
