/**
 * The project overview the dashboard draws: user counts, sign-ups and daily
 * active users for the last 31 UTC days (30 days and today), users by
 * country, recent users and how users sign in. Newer clients also read the
 * auth, e-mail, payments and analytics overviews; what the server does not
 * know yet (payments, analytics) is sent as zeros.
 */
import { z } from "zod";
import { defineEndpoint } from "./endpoint.ts";
import { booleanQuery } from "./json.ts";
import { serverUserJson } from "./users.ts";

/** Days in each series: 30 days and today. */
export const METRICS_DAYS = 31;
/** The most users each recent list holds. */
export const METRICS_RECENT_USERS = 100;

export const metricsQuery = z.strictObject({
  include_anonymous: booleanQuery.optional(),
});
export type MetricsQuery = z.input<typeof metricsQuery>;

const count = z.number().int().min(0);

/** One day of a series: `date` is the UTC day, `YYYY-MM-DD`. */
export const metricsDataPointJson = z.strictObject({ date: z.string(), activity: count });
export type MetricsDataPointJson = z.infer<typeof metricsDataPointJson>;
const series = z.array(metricsDataPointJson);

/** Active users of each day: those who signed up that day, were active the day before, or came back. */
export const metricsActivitySplitJson = z.strictObject({ total: series, new: series, retained: series, reactivated: series });

export const metricsAuthOverviewJson = z.strictObject({
  verified_users: count,
  unverified_users: count,
  anonymous_users: count,
  total_teams: count,
  /** Distinct users active in the last 30 days (today included). */
  mau: count,
  daily_active_users_split: metricsActivitySplitJson,
  daily_active_teams_split: metricsActivitySplitJson,
  total_users_filtered: count,
});

export const metricsEmailOverviewJson = z.strictObject({
  emails_by_status: z.record(z.string(), count),
  total_emails: count,
  daily_emails: series,
  daily_emails_by_status: z.array(z.strictObject({ date: z.string(), ok: count, error: count, in_progress: count })),
  emails_sent: count,
  recent_emails: z.array(z.strictObject({ id: z.string(), status: z.string(), subject: z.string(), created_at_millis: z.number() })),
  deliverability_status: z.strictObject({ delivered: count, bounced: count, error: count, in_progress: count }),
  deliverability_rate: z.number(),
  bounce_rate: z.number(),
  click_rate: z.number(),
});

export const metricsPaymentsOverviewJson = z.strictObject({
  subscriptions_by_status: z.record(z.string(), count),
  active_subscription_count: count,
  total_one_time_purchases: count,
  daily_subscriptions: series,
  revenue_cents: z.number().int(),
  mrr_cents: z.number().int(),
  total_orders: count,
  checkout_conversion_rate: z.number(),
});

export const metricsAnalyticsOverviewJson = z.strictObject({
  daily_page_views: series,
  daily_clicks: series,
  daily_visitors: series,
  daily_revenue: z.array(z.strictObject({ date: z.string(), new_cents: z.number().int(), refund_cents: z.number().int() })),
  total_revenue_cents: z.number().int(),
  total_replays: count,
  recent_replays: count,
  visitors: count,
  avg_session_seconds: z.number(),
  online_live: count,
  revenue_per_visitor: z.number(),
  top_referrers: z.array(z.strictObject({ referrer: z.string(), visitors: count })),
  top_region: z.strictObject({ country_code: z.string().nullable(), region_code: z.string().nullable(), count }).nullable(),
});

/** `method`: "password", "otp", "passkey", an OAuth provider's id, or "other". */
export const metricsLoginMethodJson = z.strictObject({ method: z.string(), count });

export const metricsJson = z.strictObject({
  total_users: count,
  daily_users: series,
  daily_active_users: series,
  /** ISO 3166-1 alpha-2 code → users. */
  users_by_country: z.record(z.string(), count),
  recently_registered: z.array(serverUserJson),
  recently_active: z.array(serverUserJson),
  login_methods: z.array(metricsLoginMethodJson),
  auth_overview: metricsAuthOverviewJson,
  email_overview: metricsEmailOverviewJson,
  payments_overview: metricsPaymentsOverviewJson,
  analytics_overview: metricsAnalyticsOverviewJson,
});
export type MetricsJson = z.infer<typeof metricsJson>;

export const internalMetricsEndpoints = {
  getMetrics: defineEndpoint({
    method: "GET",
    path: "/internal/metrics",
    summary: "The project overview: user counts, sign-ups and active users per day, countries, recent users, sign-in methods",
    tags: ["Metrics"],
    access: ["admin"],
    query: metricsQuery,
    response: metricsJson,
  }),
};
