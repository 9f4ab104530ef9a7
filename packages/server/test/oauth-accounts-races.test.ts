/**
 * First sign-ins of one provider account that race end with one user. On
 * PostgreSQL the calls really overlap: a connection of the test holds a lock
 * on oauth_accounts that lets every call look (and find nothing) but none
 * write its account, until all of them wait; then the unique indexes decide
 * and the losers decide again. PGlite runs transactions one after another,
 * so there only the outcome of each order is checked.
 */
import postgres from "postgres";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createProject, signUpUser, type Project } from "./fixtures.ts";
import { createTestServer, type TestServer } from "./harness.ts";
import { OAUTH_CONFIG, oauthSignIn, providerProfile, storedAccounts, userCount, type SignInCall } from "./oauth-account-fixtures.ts";

let server: TestServer;
let project: Project;

beforeAll(async () => {
  server = await createTestServer();
  project = await createProject(server, undefined, { ...OAUTH_CONFIG, create_team_on_sign_up: true });
});
afterAll(() => server?.close());

type Outcome = Awaited<ReturnType<typeof oauthSignIn>> | { error: any };

/** Runs the calls so that each has looked before any has written (PostgreSQL), or one after another (PGlite). */
async function overlapping(calls: SignInCall[]): Promise<Outcome[]> {
  const run = (call: SignInCall) => oauthSignIn(server, project, call).catch((error: unknown) => ({ error }));
  if (!server.databaseUrl) {
    const outcomes: Outcome[] = [];
    for (const call of calls) outcomes.push(await run(call));
    return outcomes;
  }
  const sql = postgres(server.databaseUrl, { max: 2, onnotice: () => {} });
  try {
    let locked!: () => void;
    let release!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const released = new Promise<void>((resolve) => (release = resolve));
    // Reads go on; inserts into oauth_accounts wait.
    const holding = sql.begin(async (tx) => {
      await tx`lock table oauth_accounts in share row exclusive mode`;
      locked();
      await released;
    });
    await isLocked;
    const running = calls.map(run);
    try {
      await untilWaiting(sql, calls.length);
    } finally {
      release();
      await holding;
    }
    return await Promise.all(running);
  } finally {
    await sql.end();
  }
}

/** Until `count` sessions wait for a lock (each call waits for the table, or for the first call's e-mail). */
async function untilWaiting(sql: postgres.Sql, count: number): Promise<void> {
  for (;;) {
    const [row] = await sql`
      select count(*)::int as waiting from pg_stat_activity
      where datname = current_database() and cardinality(pg_blocking_pids(pid)) > 0`;
    if (row!.waiting >= count) return;
  }
}

function signedIn(outcome: Outcome) {
  if ("error" in outcome) throw outcome.error;
  return outcome;
}

it("two first sign-ins with the same account and e-mail make one user", async () => {
  const profile = providerProfile();
  const before = await userCount(server, project);
  const [a, b] = (await overlapping([{ profile }, { profile }])).map(signedIn);
  expect(a!.user.id).toBe(b!.user.id);
  expect([a!.isNewUser, b!.isNewUser].sort()).toEqual([false, true]);
  expect(await userCount(server, project)).toBe(before + 1);
  const rows = await storedAccounts(server, project, profile.accountId);
  expect(rows.map((r) => r.userId)).toEqual([a!.user.id]);
});

it("three first sign-ins of an account without e-mail make one user", async () => {
  const profile = providerProfile({ email: null });
  const before = await userCount(server, project);
  const outcomes = (await overlapping([{ profile }, { profile }, { profile }])).map(signedIn);
  expect(new Set(outcomes.map((o) => o.user.id)).size).toBe(1);
  expect(outcomes.filter((o) => o.isNewUser)).toHaveLength(1);
  expect(await userCount(server, project)).toBe(before + 1);
  expect(await storedAccounts(server, project, profile.accountId)).toHaveLength(1);
});

it("a link and a first sign-in of one account at once: one of them gets it", async () => {
  const owner = await signUpUser(server, project);
  const profile = providerProfile({ email: null });
  const [link, signIn] = await overlapping([{ profile, type: "link", userId: owner.userId }, { profile }]);
  const rows = (await storedAccounts(server, project, profile.accountId)).filter((r) => r.allowSignIn);
  expect(rows).toHaveLength(1);
  const holder = rows[0]!.userId;
  if (holder === owner.userId) {
    // The link won: the sign-in found the owner.
    expect(signedIn(link!).user.id).toBe(owner.userId);
    expect(signedIn(signIn!)).toMatchObject({ isNewUser: false, user: { id: owner.userId } });
  } else {
    // The sign-in won: the link found the account taken.
    expect(signedIn(signIn!)).toMatchObject({ isNewUser: true, user: { id: holder } });
    expect("error" in link! && link.error.code).toBe("OAUTH_CONNECTION_ALREADY_CONNECTED_TO_ANOTHER_USER");
  }
});
