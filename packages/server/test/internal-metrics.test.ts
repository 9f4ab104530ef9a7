/** GET /internal/metrics: the project overview, computed in the database, for the project and branch asked about only. */
import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contactChannels, oauthAccounts, sentEmails, userActivityDays, users } from "../src/db/schema/index.ts";
import { Housekeeping } from "../src/domain/housekeeping/housekeeping.ts";
import { ACTIVITY_DAYS_KEPT } from "../src/domain/metrics/activity-retention.ts";
import { markUserActive } from "../src/domain/users/activity.ts";
import {
  createProject,
  expectSchemaErrorIncluding,
  patchProjectConfig,
  passwordSignIn,
  refreshWith,
  signUpUser,
  type Project,
} from "./fixtures.ts";
import { expectKnownError, TestClock, type Auth, type TestServer } from "./harness.ts";
import { CALLBACK_URL, createMailingTestServer, linkIn, type MailingServer } from "./mail-fixtures.ts";

const DAY = 86_400_000;

let mailing: MailingServer;
let server: TestServer;

beforeAll(async () => {
  mailing = await createMailingTestServer();
  server = mailing.server;
});
afterAll(() => mailing?.close());

const db = () => server.instance.services.db;

async function metrics(project: Pick<Project, "admin">, query: Record<string, string> = {}, as: Auth = project.admin) {
  const res = await server.request("/internal/metrics", { as, query });
  expect(res.status, res.text).toBe(200);
  return res.body;
}

/** `YYYY-MM-DD`, `days` days before the day of `today` (a `YYYY-MM-DD`). */
function daysBefore(today: string, days: number): string {
  return new Date(Date.parse(`${today}T00:00:00Z`) - days * DAY).toISOString().slice(0, 10);
}

function activityOn(series: { date: string; activity: number }[], date: string): number {
  const point = series.find((p) => p.date === date);
  expect(point, `${date} is not in the series`).toBeTruthy();
  return point!.activity;
}

/** Users written straight into the database, for times a request cannot produce. */
async function insertUser(project: Pick<Project, "id">, values: Partial<typeof users.$inferInsert> = {}): Promise<string> {
  const [row] = await db()
    .insert(users)
    .values({ projectId: project.id, branchId: "main", ...values })
    .returning({ id: users.id });
  return row!.id;
}

async function anonymousSignUp(project: Pick<Project, "client">): Promise<string> {
  const res = await server.request("/auth/anonymous/sign-up", { method: "POST", as: project.client });
  expect(res.status, res.text).toBe(200);
  return res.body.user_id;
}

describe("an empty project", () => {
  it("has 31 days ending today in UTC, all zero, and the overviews with zeros", async () => {
    const project = await createProject(server);
    const before = new Date().toISOString().slice(0, 10);
    const body = await metrics(project);
    const after = new Date().toISOString().slice(0, 10);
    expect(Object.keys(body).sort()).toEqual([
      "analytics_overview",
      "auth_overview",
      "daily_active_users",
      "daily_users",
      "email_overview",
      "login_methods",
      "payments_overview",
      "recently_active",
      "recently_registered",
      "total_users",
      "users_by_country",
    ]);
    const today = body.daily_users.at(-1).date;
    expect([before, after]).toContain(today);
    const days = Array.from({ length: 31 }, (_, i) => daysBefore(today, 30 - i));
    for (const series of [body.daily_users, body.daily_active_users, body.payments_overview.daily_subscriptions]) {
      expect(series).toEqual(days.map((date) => ({ date, activity: 0 })));
    }
    expect(body.total_users).toBe(0);
    expect(body.users_by_country).toEqual({});
    expect(body.recently_registered).toEqual([]);
    expect(body.recently_active).toEqual([]);
    expect(body.login_methods).toEqual([]);
    expect(body.auth_overview).toMatchObject({ verified_users: 0, unverified_users: 0, anonymous_users: 0, total_teams: 0, mau: 0 });
    expect(body.email_overview).toMatchObject({ total_emails: 0, emails_sent: 0, emails_by_status: {}, recent_emails: [] });
    expect(body.payments_overview).toMatchObject({ revenue_cents: 0, mrr_cents: 0, subscriptions_by_status: {} });
  });
});

describe("users", () => {
  let project: Project;
  let other: Project;
  let alice: Awaited<ReturnType<typeof signUpUser>>;
  let bob: Awaited<ReturnType<typeof signUpUser>>;
  let anonymousId: string;

  beforeAll(async () => {
    project = await createProject(server, undefined, { create_team_on_sign_up: true });
    other = await createProject(server);
    alice = await signUpUser(server, project);
    bob = await signUpUser(server, project);
    anonymousId = await anonymousSignUp(project);
    // Another project's users, and a user of another branch of this project, are never counted.
    await signUpUser(server, other);
    await anonymousSignUp(other);
    await insertUser(project, { branchId: "other-branch", countryCode: "FR" });
  });

  it("counts users, leaving out anonymous ones unless asked", async () => {
    const without = await metrics(project);
    expect(without.total_users).toBe(2);
    expect(without.auth_overview).toMatchObject({ anonymous_users: 1, verified_users: 0, unverified_users: 2, total_users_filtered: 2 });
    // Each sign-up made a personal team (create_team_on_sign_up), the anonymous one included.
    expect(without.auth_overview.total_teams).toBe(3);
    const withAnonymous = await metrics(project, { include_anonymous: "true" });
    expect(withAnonymous.total_users).toBe(3);
    expect(withAnonymous.auth_overview.total_users_filtered).toBe(3);
    expect((await metrics(project, { include_anonymous: "false" })).total_users).toBe(2);

    const today = without.daily_users.at(-1).date;
    expect(activityOn(without.daily_users, today)).toBe(2);
    expect(activityOn(withAnonymous.daily_users, today)).toBe(3);
    // Signing up signed them in: active today.
    expect(activityOn(without.daily_active_users, today)).toBe(2);
    expect(activityOn(withAnonymous.daily_active_users, today)).toBe(3);
    expect(without.auth_overview.mau).toBe(2);
    expect(withAnonymous.auth_overview.mau).toBe(3);
    expect(activityOn(withAnonymous.auth_overview.daily_active_users_split.new, today)).toBe(3);

    // The other project sees only its own.
    const theirs = await metrics(other);
    expect(theirs.total_users).toBe(1);
    expect(theirs.auth_overview.anonymous_users).toBe(1);
  });

  it("counts a verified primary e-mail as verified", async () => {
    await db().update(contactChannels).set({ isVerified: true }).where(eq(contactChannels.userId, bob.userId));
    const body = await metrics(project);
    expect(body.auth_overview).toMatchObject({ verified_users: 1, unverified_users: 1 });
    await db().update(contactChannels).set({ isVerified: false }).where(eq(contactChannels.userId, bob.userId));
  });

  it("counts users by country", async () => {
    for (const [user, country] of [
      [alice.userId, "DE"],
      [bob.userId, "DE"],
      [anonymousId, "JP"],
    ] as const) {
      const res = await server.request(`/users/${user}`, { method: "PATCH", as: project.server, body: { country_code: country } });
      expect(res.status, res.text).toBe(200);
    }
    expect((await metrics(project)).users_by_country).toEqual({ DE: 2 });
    expect((await metrics(project, { include_anonymous: "true" })).users_by_country).toEqual({ DE: 2, JP: 1 });
  });

  it("marks a day active on sign-in and on refresh, once per user", async () => {
    const today = new Date().toISOString().slice(0, 10);
    // A day already recorded is not recorded again, however often the user comes back.
    for (let i = 0; i < 2; i++) {
      expect((await passwordSignIn(server, project, alice.email)).status).toBe(200);
      expect((await refreshWith(server, project, alice.refreshToken)).status).toBe(200);
    }
    const rows = await db()
      .select()
      .from(userActivityDays)
      .where(and(eq(userActivityDays.userId, alice.userId), eq(userActivityDays.day, today)));
    expect(rows).toEqual([{ projectId: project.id, branchId: "main", day: today, userId: alice.userId, isAnonymous: false, kind: "new" }]);

    // Seconds apart across midnight UTC: last_active_at waits a minute, the new day does not.
    const night = await insertUser(project, { lastActiveAt: new Date(0) });
    const midnight = Date.parse(`${today}T00:00:00Z`);
    await markUserActive(db(), night, new Date(midnight - 10_000));
    await markUserActive(db(), night, new Date(midnight + 10_000));
    const nightDays = await db().select({ day: userActivityDays.day }).from(userActivityDays).where(eq(userActivityDays.userId, night));
    expect(nightDays.map((r) => r.day).sort()).toEqual([daysBefore(today, 1), today]);
    const [nightRow] = await db().select({ lastActiveAt: users.lastActiveAt }).from(users).where(eq(users.id, night));
    expect(nightRow!.lastActiveAt.getTime()).toBe(midnight - 10_000);

    // Active users are counted from these rows: without Bob's, Alice and the night owl were active today.
    await db().delete(userActivityDays).where(eq(userActivityDays.userId, bob.userId));
    expect(activityOn((await metrics(project)).daily_active_users, today)).toBe(2);
  });
});

describe("days are UTC days", () => {
  it("buckets sign-ups and activity by the UTC day, and splits active users into new, retained and reactivated", async () => {
    const project = await createProject(server);
    const { daily_users } = await metrics(project);
    const today: string = daily_users.at(-1).date;
    const midnight = (daysAgo: number) => Date.parse(`${daysBefore(today, daysAgo)}T00:00:00Z`);

    // Just before and just after midnight UTC of three days ago; and too old to show.
    const late = await insertUser(project, { signedUpAt: new Date(midnight(3) - 1) });
    const early = await insertUser(project, { signedUpAt: new Date(midnight(3)) });
    const early2 = await insertUser(project, { signedUpAt: new Date(midnight(3) + DAY - 1) });
    const old = await insertUser(project, { signedUpAt: new Date(midnight(40)) });
    const anonymous = await insertUser(project, { signedUpAt: new Date(midnight(3)), isAnonymous: true });

    const day = (daysAgo: number) => daysBefore(today, daysAgo);
    // Activity as sign-ins and refreshes record it, at noon UTC of each day, oldest first.
    const activeDays: Record<number, string[]> = { 40: [old], 35: [old], 30: [old], 4: [late], 3: [late, early, early2, anonymous] };
    for (const daysAgo of [40, 35, 30, 4, 3]) {
      for (const userId of activeDays[daysAgo]!) await markUserActive(db(), userId, new Date(midnight(daysAgo) + DAY / 2));
    }
    // Upgraded since: active as a regular user from then on.
    await db().update(users).set({ isAnonymous: false }).where(eq(users.id, anonymous));
    for (const [daysAgo, userIds] of [
      [2, [late, old, anonymous]],
      [1, [early, old]],
    ] as const) {
      for (const userId of userIds) await markUserActive(db(), userId, new Date(midnight(daysAgo) + DAY / 2));
    }

    const body = await metrics(project);
    // The upgraded user counts as a user now, signed up on the day of the anonymous account; not while anonymous.
    expect(body.total_users).toBe(5);
    expect(activityOn(body.daily_users, day(4))).toBe(1);
    expect(activityOn(body.daily_users, day(3))).toBe(3);
    expect(body.daily_users.reduce((sum: number, p: { activity: number }) => sum + p.activity, 0)).toBe(4);
    await db().update(users).set({ isAnonymous: true }).where(eq(users.id, anonymous));
    const whileAnonymous = await metrics(project);
    expect(whileAnonymous.total_users).toBe(4);
    expect(activityOn(whileAnonymous.daily_users, day(3))).toBe(2);
    expect(activityOn((await metrics(project, { include_anonymous: "true" })).daily_users, day(3))).toBe(3);
    await db().update(users).set({ isAnonymous: false }).where(eq(users.id, anonymous));

    // A day counts users as they were that day: the upgraded user's anonymous day only with anonymous users.
    expect(body.daily_active_users.map((p: { activity: number }) => p.activity)).toEqual(
      Array.from({ length: 31 }, (_, i) => ({ 30: 1, 4: 1, 3: 3, 2: 3, 1: 2 })[30 - i] ?? 0),
    );
    expect(activityOn((await metrics(project, { include_anonymous: "true" })).daily_active_users, day(3))).toBe(4);
    expect(body.daily_active_users[0]).toEqual({ date: day(30), activity: 1 });
    const split = body.auth_overview.daily_active_users_split;
    expect(split.total).toEqual(body.daily_active_users);
    // Three days ago: late came back from the day before (retained), early and early2 signed up (new).
    expect([activityOn(split.new, day(3)), activityOn(split.retained, day(3)), activityOn(split.reactivated, day(3))]).toEqual([2, 1, 0]);
    // Two days ago: late again (retained), old after days away (reactivated), the upgraded user again (retained).
    expect([activityOn(split.new, day(2)), activityOn(split.retained, day(2)), activityOn(split.reactivated, day(2))]).toEqual([0, 2, 1]);
    expect(activityOn(split.reactivated, day(30))).toBe(1);
    // Yesterday: early came back (reactivated), old again (retained).
    expect([activityOn(split.new, day(1)), activityOn(split.retained, day(1)), activityOn(split.reactivated, day(1))]).toEqual([0, 1, 1]);
    // Active in the last 30 days, today included: all five (the upgraded one after upgrading).
    expect(body.auth_overview.mau).toBe(5);
  });

  it("housekeeping deletes activity days older than those kept, once a day", async () => {
    const project = await createProject(server);
    const userId = await insertUser(project);
    const today = server.clock.date().toISOString().slice(0, 10);
    // A round run tomorrow, on a clock of its own: the rest of this file's server stays on today.
    const tomorrow = new TestClock();
    tomorrow.advance(DAY);
    const housekeeping = new Housekeeping(db(), server.instance.services.logger, tomorrow, []);
    const kept = daysBefore(today, ACTIVITY_DAYS_KEPT - 2);
    const tooOld = daysBefore(today, ACTIVITY_DAYS_KEPT);
    await db()
      .insert(userActivityDays)
      .values(
        [kept, tooOld].map((day) => ({ projectId: project.id, branchId: "main", userId, day, isAnonymous: false, kind: "new" as const })),
      );
    const result = await housekeeping.run();
    expect(result).toMatchObject({ oldActivityDays: expect.any(Number) });
    const left = await db().select({ day: userActivityDays.day }).from(userActivityDays).where(eq(userActivityDays.userId, userId));
    expect(left.map((r) => r.day)).toEqual([kept]);
    // Already swept on that day: the next round does not scan again.
    await db()
      .insert(userActivityDays)
      .values({ projectId: project.id, branchId: "main", userId, day: tooOld, isAnonymous: false, kind: "new" });
    expect(await housekeeping.run()).toMatchObject({ oldActivityDays: 0 });
  });
});

describe("recent users", () => {
  it("lists the newest sign-ups and the most recently active, newest first, at most 100", async () => {
    const project = await createProject(server);
    const base = Date.now() - 200 * 60_000;
    const ids: string[] = [];
    for (let i = 0; i < 105; i++) {
      // Signed up in one order, active in the reverse order.
      ids.push(await insertUser(project, { signedUpAt: new Date(base + i * 60_000), lastActiveAt: new Date(base + (105 - i) * 60_000) }));
    }
    const anonymous = await insertUser(project, { signedUpAt: new Date(), lastActiveAt: new Date(), isAnonymous: true });
    const body = await metrics(project);
    expect(body.recently_registered.map((u: { id: string }) => u.id)).toEqual(ids.slice(5).reverse());
    expect(body.recently_active.map((u: { id: string }) => u.id)).toEqual(ids.slice(0, 100));
    // Server user objects.
    const user = await server.request(`/users/${ids[104]}`, { as: project.server });
    expect(body.recently_registered[0]).toEqual(user.body);

    const withAnonymous = await metrics(project, { include_anonymous: "true" });
    expect(withAnonymous.recently_registered[0].id).toBe(anonymous);
    expect(withAnonymous.recently_active[0].id).toBe(anonymous);
    expect(withAnonymous.recently_registered).toHaveLength(100);
  });
});

describe("sign-in methods and e-mails", () => {
  it("counts each user's ways of signing in: password, one-time code, passkey, OAuth providers the project has", async () => {
    const project = await createProject(server, undefined, {
      magic_link_enabled: true,
      oauth_providers: [
        { id: "github", type: "shared" },
        { id: "google", type: "shared" },
      ],
    });
    const withPassword = await signUpUser(server, project);
    await signUpUser(server, project);

    // A one-time code sign-in, through the mailed code.
    const email = `otp-${randomUUID()}@example.com`;
    const sent = await server.request("/auth/otp/send-sign-in-code", {
      method: "POST",
      as: project.client,
      body: { email, callback_url: CALLBACK_URL },
    });
    expect(sent.status, sent.text).toBe(200);
    const { code } = linkIn(await mailing.mailTo(email));
    const signedIn = await server.request("/auth/otp/sign-in", { method: "POST", as: project.client, body: { code } });
    expect(signedIn.status, signedIn.text).toBe(200);

    await db().update(users).set({ passkeyAuthEnabled: true }).where(eq(users.id, withPassword.userId));
    // Accounts as an OAuth sign-in leaves them (tested with the provider in oauth-accounts.test.ts).
    for (const provider of ["github", "github", "google"]) {
      const res = await server.request("/users", { method: "POST", as: project.server, body: {} });
      expect(res.status, res.text).toBe(201);
      await db().insert(oauthAccounts).values({
        projectId: project.id,
        branchId: "main",
        userId: res.body.id,
        providerConfigId: provider,
        providerAccountId: randomUUID(),
      });
    }
    // A connected account that does not sign in is no sign-in method.
    await db().insert(oauthAccounts).values({
      projectId: project.id,
      branchId: "main",
      userId: withPassword.userId,
      providerConfigId: "google",
      providerAccountId: randomUUID(),
      allowSignIn: false,
    });

    const body = await metrics(project);
    // Most used first; ties by name.
    expect(body.login_methods).toEqual([
      { method: "github", count: 2 },
      { method: "password", count: 2 },
      { method: "google", count: 1 },
      { method: "otp", count: 1 },
      { method: "passkey", count: 1 },
    ]);
    // A provider the project no longer has signs no one in.
    await patchProjectConfig(server, project, { oauth_providers: [{ id: "github", type: "shared" }] });
    expect((await metrics(project)).login_methods.map((m: { method: string }) => m.method)).not.toContain("google");

    // The code went out by e-mail: the e-mail overview counts it.
    const emails = (await metrics(project)).email_overview;
    expect(emails).toMatchObject({ total_emails: 1, emails_sent: 1, emails_by_status: { sent: 1 } });
    expect(emails.deliverability_status).toEqual({ delivered: 1, bounced: 0, error: 0, in_progress: 0 });
    expect(emails.deliverability_rate).toBe(1);
    expect(emails.recent_emails).toHaveLength(1);
    expect(emails.recent_emails[0]).toMatchObject({ status: "sent" });
    expect(emails.daily_emails.at(-1).activity).toBe(1);
  });

  it("buckets e-mails by UTC day and status", async () => {
    const project = await createProject(server);
    const today = (await metrics(project)).daily_users.at(-1).date;
    const midnight = Date.parse(`${daysBefore(today, 2)}T00:00:00Z`);
    // Not due for a long while: the queue leaves the queued one as it is.
    const mail = (status: string, at: number) => ({
      projectId: project.id,
      to: ["a@example.com"],
      subject: status,
      html: "",
      status,
      createdAt: new Date(at),
      nextAttemptAt: new Date(Date.now() + DAY),
    });
    await db()
      .insert(sentEmails)
      .values([mail("sent", midnight - 1), mail("failed", midnight), mail("outbox", midnight + DAY - 1), mail("queued", midnight + 1)]);
    const emails = (await metrics(project)).email_overview;
    expect(emails.emails_by_status).toEqual({ failed: 1, outbox: 1, queued: 1, sent: 1 });
    expect(emails.daily_emails_by_status.find((d: { date: string }) => d.date === daysBefore(today, 2))).toEqual({
      date: daysBefore(today, 2),
      ok: 1,
      error: 1,
      in_progress: 1,
    });
    expect(activityOn(emails.daily_emails, daysBefore(today, 3))).toBe(1);
    expect(emails.deliverability_status).toEqual({ delivered: 2, bounced: 0, error: 1, in_progress: 1 });
    expect(emails.deliverability_rate).toBeCloseTo(2 / 3);
    expect(emails.recent_emails.map((e: { subject: string }) => e.subject)).toEqual(["outbox", "queued", "failed", "sent"]);
  });
});

describe("access", () => {
  it("is for admins only, by key or by the owner's token", async () => {
    const project = await createProject(server);
    await metrics(project, {}, project.ownerAdmin);
    for (const as of [project.client, project.server]) {
      expectKnownError(await server.request("/internal/metrics", { as }), "INSUFFICIENT_ACCESS_TYPE", 401);
    }
  });

  it("refuses include_anonymous other than true or false", async () => {
    const project = await createProject(server);
    for (const value of ["yes", "1", ""]) {
      const res = await server.request("/internal/metrics", { as: project.admin, query: { include_anonymous: value } });
      expectSchemaErrorIncluding(res, "query.include_anonymous must be one of the following values: true, false");
    }
    const res = await server.request("/internal/metrics", { as: project.admin, query: { other: "x" } });
    expect(res.status).toBe(400);
    expectKnownError(res, "SCHEMA_ERROR", 400);
  });
});
