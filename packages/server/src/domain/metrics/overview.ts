/**
 * GET /internal/metrics: the project overview, computed in the database
 * (user-metrics.ts, recent-users.ts, email-metrics.ts). Payments and
 * analytics are not recorded by Latchkey yet: their overviews are zeros.
 */
import type { MetricsJson } from "@latchkey/shared";
import type { DbOrTx } from "../../db/connect.ts";
import { hasOAuthProvider } from "../projects/config.ts";
import { serverUserView } from "../users/views.ts";
import { emailOverview } from "./email-metrics.ts";
import { recentlyActive, recentlyRegistered } from "./recent-users.ts";
import { dailyActiveUsers, dailySignUps, signInMethods, userCounts, usersByCountry, type DataPoint } from "./user-metrics.ts";
import { metricsWindow, type MetricsWindow } from "./window.ts";
import type { ProjectRow } from "../projects/project-row.ts";

const BUILT_IN_METHODS = new Set(["password", "otp", "passkey"]);

export async function projectMetrics(
  db: DbOrTx,
  project: ProjectRow,
  branchId: string,
  options: { includeAnonymous: boolean; now: Date },
): Promise<MetricsJson> {
  const window = metricsWindow(options.now);
  const scope = { projectId: project.id, branchId, includeAnonymous: options.includeAnonymous };
  const [counts, signUps, active, countries, methods, registered, recent, emails] = await Promise.all([
    userCounts(db, scope, window),
    dailySignUps(db, scope, window),
    dailyActiveUsers(db, scope, window),
    usersByCountry(db, scope),
    signInMethods(db, scope),
    recentlyRegistered(db, scope),
    recentlyActive(db, scope),
    emailOverview(db, project.id, window),
  ]);
  const zeros = zeroSeries(window);
  return {
    total_users: counts.total,
    daily_users: signUps,
    daily_active_users: active.total,
    users_by_country: countries,
    recently_registered: registered.map((user) => serverUserView(user, project.config)),
    recently_active: recent.map((user) => serverUserView(user, project.config)),
    // As the user object does, accounts of a provider the project removed are left out: they no longer sign anyone in.
    login_methods: methods.filter(({ method }) => BUILT_IN_METHODS.has(method) || hasOAuthProvider(project.config, method)),
    auth_overview: {
      verified_users: counts.verified,
      unverified_users: counts.unverified,
      anonymous_users: counts.anonymous,
      total_teams: counts.teams,
      mau: counts.monthlyActive,
      daily_active_users_split: active,
      daily_active_teams_split: { total: zeros, new: zeros, retained: zeros, reactivated: zeros },
      total_users_filtered: counts.total,
    },
    email_overview: emails,
    payments_overview: {
      subscriptions_by_status: {},
      active_subscription_count: 0,
      total_one_time_purchases: 0,
      daily_subscriptions: zeros,
      revenue_cents: 0,
      mrr_cents: 0,
      total_orders: 0,
      checkout_conversion_rate: 0,
    },
    analytics_overview: {
      daily_page_views: zeros,
      daily_clicks: zeros,
      daily_visitors: zeros,
      daily_revenue: window.days.map((date) => ({ date, new_cents: 0, refund_cents: 0 })),
      total_revenue_cents: 0,
      total_replays: 0,
      recent_replays: 0,
      visitors: 0,
      avg_session_seconds: 0,
      online_live: 0,
      revenue_per_visitor: 0,
      top_referrers: [],
      top_region: null,
    },
  };
}

function zeroSeries(window: MetricsWindow): DataPoint[] {
  return window.days.map((date) => ({ date, activity: 0 }));
}
