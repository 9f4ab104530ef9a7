/**
 * The project overview an admin reads: user counts, sign-ups and daily active
 * users for the last 31 UTC days (today last), users by country, recent users
 * and how users sign in.
 */
import type { MetricsJson } from "@latchkey/shared/api/index";
import { camelKeys, type DeepCamelCaseKeys } from "./case.ts";
import type { ServerUserJson } from "./json.ts";
import type { ServerUser } from "./server-user.ts";

/** One UTC day of a series; `date` is `YYYY-MM-DD`. */
export interface MetricsDataPoint {
  readonly date: string;
  readonly activity: number;
}

/** `method`: "password", "otp", "passkey", an OAuth provider's id, or "other". */
export interface MetricsLoginMethod {
  readonly method: string;
  readonly count: number;
}

export type MetricsAuthOverview = DeepCamelCaseKeys<MetricsJson["auth_overview"]>;
/** Record keys (statuses) are kept as the server names them. */
export type MetricsEmailOverview = DeepCamelCaseKeys<Omit<MetricsJson["email_overview"], "emails_by_status">> & {
  readonly emailsByStatus: Record<string, number>;
};
export type MetricsPaymentsOverview = DeepCamelCaseKeys<Omit<MetricsJson["payments_overview"], "subscriptions_by_status">> & {
  readonly subscriptionsByStatus: Record<string, number>;
};
export type MetricsAnalyticsOverview = DeepCamelCaseKeys<MetricsJson["analytics_overview"]>;

export interface ProjectMetrics {
  readonly totalUsers: number;
  /** Sign-ups per day, 31 days ending today (UTC). */
  readonly dailyUsers: MetricsDataPoint[];
  /** Distinct active users per day, 31 days ending today (UTC). */
  readonly dailyActiveUsers: MetricsDataPoint[];
  /** ISO 3166-1 alpha-2 code → users. */
  readonly usersByCountry: Record<string, number>;
  /** Newest sign-ups first. */
  readonly recentlyRegistered: ServerUser[];
  /** Most recently active first. */
  readonly recentlyActive: ServerUser[];
  readonly loginMethods: MetricsLoginMethod[];
  readonly authOverview: MetricsAuthOverview;
  readonly emailOverview: MetricsEmailOverview;
  readonly paymentsOverview: MetricsPaymentsOverview;
  readonly analyticsOverview: MetricsAnalyticsOverview;
}

export function metricsFromJson(json: MetricsJson, user: (json: ServerUserJson) => ServerUser): ProjectMetrics {
  const { emails_by_status, ...email } = json.email_overview;
  const { subscriptions_by_status, ...payments } = json.payments_overview;
  return {
    totalUsers: json.total_users,
    dailyUsers: json.daily_users,
    dailyActiveUsers: json.daily_active_users,
    usersByCountry: json.users_by_country,
    recentlyRegistered: json.recently_registered.map(user),
    recentlyActive: json.recently_active.map(user),
    loginMethods: json.login_methods,
    authOverview: camelKeys(json.auth_overview),
    emailOverview: { ...camelKeys<DeepCamelCaseKeys<typeof email>>(email), emailsByStatus: emails_by_status },
    paymentsOverview: { ...camelKeys<DeepCamelCaseKeys<typeof payments>>(payments), subscriptionsByStatus: subscriptions_by_status },
    analyticsOverview: camelKeys(json.analytics_overview),
  };
}
