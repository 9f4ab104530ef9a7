/**
 * What is measured, against a server that is already running and seeded:
 * autocannon scenarios (cannon.ts runs them), the hello ceiling, the bare argon2id verify rate, the
 * concurrent sign-up burst of one e-mail, and the sequential sign-in timing
 * probe. Results go into a DatabaseReport, which report.ts renders. Everything
 * here only measures; starting and stopping processes is processes.ts's job.
 */
import { hashPassword, verifyPassword } from "../src/domain/auth/password/passwords.ts";
import { CONNECTIONS, DISTINCT_SESSIONS, DURATION, HELLO_ENTRY, PASSWORD, PROBE_COUNT, RUN_ID, WARMUP, wanted } from "./config.ts";
import { freePort, startChild, stopChild, waitReady } from "./processes.ts";
import {
  burst,
  call,
  sessionPool,
  teamMembersFixture,
  TEAMS_PER_MEMBER,
  userApiKeys,
  type ApiResponse,
  type BurstResult,
  type Fixture,
} from "./setup.ts";
import { cannon, eachWithHeader, jsonPost, roundRobin, withHeaderPerRequest, type CannonRequest, type Row } from "./cannon.ts";
import { attemptCodes, currentTotp, importUsers, MFA_SIGN_INS } from "./second-factor.ts";
import { PASSKEY_SIGN_INS, passkeySignIns, registerPoolPasskeys } from "./passkeys.ts";
import { deliveryFigures, startBenchReceiver, WEBHOOK_ENDPOINTS, type DeliveryFigures } from "./webhooks.ts";

export type { Row };

export const API_KEY_CHECK = "POST /user-api-keys/check";
export const USERS_ME = "GET /users/me";
export const USERS_ME_PAIRED = "GET /users/me (alternating with the check)";
/** How many slices of each the check and its session read alternate in. */
const PAIRED_SLICES = 4;

/** Slices of one scenario as one row: mean throughput and CPU, the worst p99. */
function meanRow(scenario: string, rows: Row[]): Row {
  const mean = (pick: (row: Row) => number) => rows.reduce((sum, row) => sum + pick(row), 0) / rows.length;
  return {
    scenario,
    rps: mean((r) => r.rps),
    p50: mean((r) => r.p50),
    p99: Math.max(...rows.map((r) => r.p99)),
    errors: rows.reduce((sum, r) => sum + r.errors, 0),
    errorDetail: rows
      .map((r) => r.errorDetail)
      .filter(Boolean)
      .join("; "),
    serverCpu: mean((r) => r.serverCpu),
    loadCpu: mean((r) => r.loadCpu),
  };
}
export const REFRESH_COLD = "refresh: each session's first, read from the database";
export const REFRESH_DISTINCT = "refresh: no session twice in a second, sessions cached";
export const SIGN_UP = "POST /auth/password/sign-up";
export const SIGN_UP_WEBHOOKS = `POST /auth/password/sign-up (${WEBHOOK_ENDPOINTS} webhook endpoints)`;
/** How long the deliveries of the sign-up-webhooks load may take to drain before the run counts as failed. */
const DRAIN_TIMEOUT_MILLIS = 300_000;
/** No delivery for this long after the last sign-up's: the queue is empty. */
const DRAIN_QUIET_MILLIS = 500;

const REFRESH_PATH = "/api/v1/auth/sessions/current/refresh";
const refreshWith = (nextRefreshToken: () => string) =>
  withHeaderPerRequest("POST", REFRESH_PATH, "x-stack-refresh-token", nextRefreshToken);

export async function hello(): Promise<Row> {
  const port = await freePort();
  const child = startChild("hello server", ["--import", "tsx", HELLO_ENTRY], { ...process.env, PORT: String(port) });
  try {
    const base = `http://127.0.0.1:${port}`;
    await waitReady(`${base}/`, child);
    const pid = child.process.pid!;
    await cannon("warm-up", base, { request: { method: "GET", path: "/" }, pid }, WARMUP);
    return await cannon("hello (bare Hono, the ceiling)", base, { request: { method: "GET", path: "/" }, pid });
  } finally {
    await stopChild(child);
  }
}

/** Two runs of the ceiling, as one row: the mean of each figure (latencies: the worse). */
export function meanCeiling(before: Row, after: Row): Row {
  const mean = (a: number, b: number) => (a + b) / 2;
  return {
    scenario: `hello (bare Hono, the ceiling: mean of ${Math.round(before.rps)} req/s before the scenarios and ${Math.round(after.rps)} after)`,
    rps: mean(before.rps, after.rps),
    p50: Math.max(before.p50, after.p50),
    p99: Math.max(before.p99, after.p99),
    errors: before.errors + after.errors,
    errorDetail: [before.errorDetail, after.errorDetail].filter(Boolean).join(", "),
    serverCpu: mean(before.serverCpu, after.serverCpu),
    loadCpu: mean(before.loadCpu, after.loadCpu),
  };
}

export interface HashRate {
  rps: number;
  singleMillis: number;
  /** CPU time one verify costs (all threads). */
  cpuMillis: number;
}

/**
 * Raw argon2id verify throughput in this process, with the server's options
 * and as many concurrent calls as connections: what sign-in can reach at best.
 */
async function hashRate(seconds = 3): Promise<HashRate> {
  const stored = await hashPassword(PASSWORD);
  let t = performance.now();
  for (let i = 0; i < 5; i++) await verifyPassword(stored, PASSWORD);
  const singleMillis = (performance.now() - t) / 5;
  let done = 0;
  const deadline = performance.now() + seconds * 1000;
  t = performance.now();
  const cpu0 = process.cpuUsage();
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (performance.now() < deadline) {
        await verifyPassword(stored, PASSWORD);
        done += 1;
      }
    }),
  );
  const cpu = process.cpuUsage(cpu0);
  return { rps: done / ((performance.now() - t) / 1000), singleMillis, cpuMillis: (cpu.user + cpu.system) / 1000 / done };
}

function median(values: number[]): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export interface TimingProbe {
  correct: number;
  wrongPassword: number;
  unknownEmail: number;
  counted: number;
  rateLimited: number;
  unexpected: string[];
}

/**
 * Sequential sign-ins: a wrong password for known users vs an unknown e-mail
 * (interleaved; 2×60 failures from one address stay under the limit of 200
 * per address, and at most 1–2 per account under the limit of 20).
 */
async function timingProbe(base: string, fx: Fixture): Promise<TimingProbe> {
  const correct: number[] = [];
  const wrong: number[] = [];
  const unknown: number[] = [];
  let rateLimited = 0;
  const unexpected: string[] = [];
  const signIn = (email: string, password: string) =>
    call(base, "/auth/password/sign-in", { method: "POST", headers: fx.client, body: { email, password } });
  const note = (what: string, res: ApiResponse, expected: string) => {
    if (res.status === 429) rateLimited += 1;
    else unexpected.push(`${what}: ${res.status} ${res.knownError ?? ""} (expected ${expected})`);
  };
  for (let i = 0; i < PROBE_COUNT; i++) {
    const user = fx.users[i % fx.users.length]!;
    const w = await signIn(user.email, `${PASSWORD} but wrong`);
    if (w.knownError === "EMAIL_PASSWORD_MISMATCH") wrong.push(w.millis);
    else note("wrong password", w, "EMAIL_PASSWORD_MISMATCH");
    const u = await signIn(`nobody-${RUN_ID}-${i}@example.com`, PASSWORD);
    if (u.knownError === "EMAIL_PASSWORD_MISMATCH") unknown.push(u.millis);
    else note("unknown e-mail", u, "EMAIL_PASSWORD_MISMATCH");
    if (i % 3 === 0) {
      const c = await signIn(user.email, PASSWORD);
      if (c.status === 200) correct.push(c.millis);
      else note("correct password", c, "200");
    }
  }
  return {
    correct: median(correct),
    wrongPassword: median(wrong),
    unknownEmail: median(unknown),
    counted: Math.min(wrong.length, unknown.length),
    rateLimited,
    unexpected: unexpected.slice(0, 5),
  };
}

// ---------------------------------------------------------------------------
// One database's results, and the scenarios that fill them.

export interface DatabaseReport {
  label: string;
  /** 1-minute load average when the section started and ended. */
  load: [number, number];
  /** Median /users/me latency of one sequential client, idle and during the sign-in load. */
  meDuringSignIn: { idle: number; busy: number; count: number } | null;
  /** argon2id verify rate measured just before the sign-in scenario. */
  hash: HashRate | null;
  ceiling: Row | null;
  rows: Row[];
  burst: BurstResult | null;
  race: BurstResult | null;
  probe: TimingProbe | null;
  /** What the receiver of the sign-up-webhooks scenario counted. */
  webhookDeliveries: DeliveryFigures | null;
  serverErrors: string[];
  failure: string | null;
}

/** What the scenarios may ask of the orchestrator (run.ts), which owns the server process. */
export interface ServerControl {
  /**
   * Gives the project WEBHOOK_ENDPOINTS endpoints at `receiverUrl`; resolves with the server's pid, a new one
   * when the server had to be stopped for it (PGlite).
   */
  addWebhookEndpoints(projectId: string, receiverUrl: string): Promise<number>;
}

/**
 * The load scenarios chosen by BENCH_SCENARIOS (all but the hello ceiling),
 * then the robustness and timing probes, against the running server `pid` at
 * `base`. Fills `report` as it goes, so what was measured before a failure is kept.
 */
export async function runScenarios(
  label: string,
  base: string,
  pid: number,
  fx: Fixture,
  report: DatabaseReport,
  control: ServerControl,
): Promise<void> {
  const nextUser = roundRobin(fx.users);

  if (wanted("floor")) {
    // Not a target: the same request pipeline with no authentication and no database.
    process.stdout.write(`[${label}] GET /api/v1/ (pipeline floor)…\n`);
    const request: CannonRequest = { method: "GET", path: "/api/v1/" };
    await cannon("warm-up", base, { request, pid }, WARMUP);
    report.rows.push(await cannon("GET /api/v1/ (Latchkey pipeline, no auth, no DB)", base, { request, pid }));
  }
  const meRequest = eachWithHeader(
    "GET",
    "/api/v1/users/me",
    "x-stack-access-token",
    fx.users.map((u) => u.accessToken),
  );
  if (wanted("me")) {
    process.stdout.write(`[${label}] GET /users/me…\n`);
    await cannon("warm-up", base, { headers: fx.client, request: meRequest, pid }, WARMUP);
    report.rows.push(await cannon(USERS_ME, base, { headers: fx.client, request: meRequest, pid }));
  }
  if (wanted("api-key-check")) {
    // A server checking the user API keys it is given: one key per pool user, each checked in turn.
    process.stdout.write(`[${label}] POST /user-api-keys/check…\n`);
    const request: CannonRequest[] = (await userApiKeys(base, fx)).map((apiKey) => ({
      method: "POST",
      path: "/api/v1/user-api-keys/check",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ api_key: apiKey }),
    }));
    await cannon("warm-up", base, { headers: fx.server, request, pid }, WARMUP);
    if (!wanted("me")) {
      report.rows.push(await cannon(API_KEY_CHECK, base, { headers: fx.server, request, pid }));
    } else {
      // Compared with the session read on a machine whose speed drifts within seconds: the two alternate in short
      // slices, and each row is the mean of its slices.
      const checks: Row[] = [];
      const reads: Row[] = [];
      const slice = Math.max(2, DURATION / PAIRED_SLICES);
      for (let i = 0; i < PAIRED_SLICES; i++) {
        reads.push(await cannon(USERS_ME_PAIRED, base, { headers: fx.client, request: meRequest, pid }, slice));
        checks.push(await cannon(API_KEY_CHECK, base, { headers: fx.server, request, pid }, slice));
      }
      report.rows.push(meanRow(API_KEY_CHECK, checks), meanRow(USERS_ME_PAIRED, reads));
    }
  }
  if (wanted("teams") || wanted("team-permissions")) {
    const members = await teamMembersFixture(base, fx);
    if (wanted("teams")) {
      process.stdout.write(`[${label}] GET /teams?user_id=me (${TEAMS_PER_MEMBER} teams each)…\n`);
      const request = eachWithHeader(
        "GET",
        "/api/v1/teams?user_id=me",
        "x-stack-access-token",
        members.map((m) => m.accessToken),
      );
      await cannon("warm-up", base, { headers: fx.client, request, pid }, WARMUP);
      report.rows.push(await cannon(`GET /teams?user_id=me (${TEAMS_PER_MEMBER} teams)`, base, { headers: fx.client, request, pid }));
    }
    if (wanted("team-permissions")) {
      process.stdout.write(`[${label}] GET /team-permissions?team_id&user_id=me&recursive=true…\n`);
      const request: CannonRequest[] = members.map((m) => ({
        method: "GET",
        path: `/api/v1/team-permissions?team_id=${m.teamIds[m.teamIds.length - 1]}&user_id=me&recursive=true`,
        headers: { "x-stack-access-token": m.accessToken },
      }));
      await cannon("warm-up", base, { headers: fx.client, request, pid }, WARMUP);
      report.rows.push(await cannon("GET /team-permissions?team_id&user_id=me&recursive=true", base, { headers: fx.client, request, pid }));
    }
  }
  if (wanted("refresh")) {
    process.stdout.write(`[${label}] refresh…\n`);
    const request = eachWithHeader(
      "POST",
      REFRESH_PATH,
      "x-stack-refresh-token",
      fx.users.map((u) => u.refreshToken),
    );
    await cannon("warm-up", base, { headers: fx.client, request, pid }, WARMUP);
    report.rows.push(await cannon("POST /auth/sessions/current/refresh", base, { headers: fx.client, request, pid }));
  }
  if (wanted("refresh-distinct")) {
    // Not targets. The refresh above mostly repeats a session within the same
    // second, where the server hands out the token it has just signed. Here no
    // session comes back within a second: first each session once, read from
    // the database (a session's first refresh in this process), then the same
    // sessions again, now cached, so every request pays for a signature.
    process.stdout.write(`[${label}] creating ${DISTINCT_SESSIONS} sessions, then refresh with a different session each time…\n`);
    const nextToken = roundRobin(await sessionPool(base, fx, DISTINCT_SESSIONS));
    const request = refreshWith(nextToken);
    report.rows.push(await cannon(REFRESH_COLD, base, { headers: fx.client, request, pid, amount: DISTINCT_SESSIONS }));
    report.rows.push(await cannon(REFRESH_DISTINCT, base, { headers: fx.client, request, pid }));
  }
  if (wanted("sign-in")) {
    process.stdout.write(`[${label}] argon2id verify rate, then sign-in…\n`);
    report.hash = await hashRate();
    const request = jsonPost("/api/v1/auth/password/sign-in", () => ({ email: nextUser().email, password: PASSWORD }));
    // Alongside: one client reading /users/me in a loop, to see what hashing does to other requests.
    const user = fx.users[0]!;
    const readMe = () => call(base, "/users/me", { headers: { ...fx.client, "x-stack-access-token": user.accessToken } });
    const idle: number[] = [];
    for (let i = 0; i < 20; i++) idle.push((await readMe()).millis);
    let running = true;
    const busy: number[] = [];
    const reader = (async () => {
      await new Promise((r) => setTimeout(r, 1000));
      while (running) {
        const res = await readMe().catch(() => null);
        if (res && running) busy.push(res.millis);
      }
    })();
    report.rows.push(await cannon("POST /auth/password/sign-in", base, { headers: fx.client, request, pid }));
    running = false;
    await reader;
    report.meDuringSignIn = { idle: median(idle), busy: median(busy), count: busy.length };
  }
  if (wanted("sign-in-cheap-hash")) {
    process.stdout.write(`[${label}] sign-in with a cheap stored hash (the sign-in's cost without argon2id)…\n`);
    const nextImported = roundRobin(await importUsers(base, fx, 256, label, false));
    const request = jsonPost("/api/v1/auth/password/sign-in", () => ({ email: nextImported().email, password: PASSWORD }));
    await cannon("warm-up", base, { headers: fx.client, request, pid }, WARMUP);
    report.rows.push(await cannon("POST /auth/password/sign-in (bcrypt cost 4: no hash cost)", base, { headers: fx.client, request, pid }));
  }
  if (wanted("mfa-sign-in")) {
    process.stdout.write(`[${label}] ${MFA_SIGN_INS} two-factor users, their first factor, then the TOTP step…\n`);
    const nextAttempt = roundRobin(await attemptCodes(base, fx, await importUsers(base, fx, MFA_SIGN_INS, label, true)));
    const request = jsonPost("/api/v1/auth/mfa/sign-in", () => {
      const attempt = nextAttempt();
      return { type: "totp", totp: currentTotp(attempt.secretBase64), code: attempt.code };
    });
    report.rows.push(
      await cannon(`POST /auth/mfa/sign-in (${MFA_SIGN_INS}, each code once)`, base, {
        headers: fx.client,
        request,
        pid,
        amount: MFA_SIGN_INS,
      }),
    );
  }
  if (wanted("passkey-sign-in")) {
    process.stdout.write(`[${label}] a passkey per pool user, ${PASSKEY_SIGN_INS} challenges answered, then passkey sign-in…\n`);
    const nextBody = roundRobin(await passkeySignIns(base, fx, await registerPoolPasskeys(base, fx), PASSKEY_SIGN_INS));
    const request = jsonPost("/api/v1/auth/passkey/sign-in", nextBody);
    report.rows.push(
      await cannon(`POST /auth/passkey/sign-in (${PASSKEY_SIGN_INS}, each challenge once)`, base, {
        headers: fx.client,
        request,
        pid,
        amount: PASSKEY_SIGN_INS,
      }),
    );
  }
  // The sign-up with webhooks is compared with the plain sign-up of the same run, which it needs.
  if (wanted("sign-up") || wanted("sign-up-webhooks")) {
    process.stdout.write(`[${label}] sign-up…\n`);
    let n = 0;
    const request = jsonPost("/api/v1/auth/password/sign-up", () => ({
      email: `load-${RUN_ID}-${label.toLowerCase()}-${n++}@example.com`,
      password: PASSWORD,
    }));
    report.rows.push(await cannon(SIGN_UP, base, { headers: fx.client, request, pid }));
  }
  if (wanted("sign-up-webhooks")) {
    // From here on the project has endpoints: the probes below send webhooks too (their figures are not rates).
    process.stdout.write(`[${label}] ${WEBHOOK_ENDPOINTS} webhook endpoints on the project, then sign-up…\n`);
    const receiver = await startBenchReceiver();
    try {
      pid = await control.addWebhookEndpoints(fx.client["x-stack-project-id"]!, receiver.url);
      let n = 0;
      const request = jsonPost("/api/v1/auth/password/sign-up", () => ({
        email: `load-webhooks-${RUN_ID}-${label.toLowerCase()}-${n++}@example.com`,
        password: PASSWORD,
      }));
      // Drained: one more sign-up's messages have reached every endpoint (jobs are claimed in order of due time),
      // and nothing more comes.
      const drain = async (what: string) => {
        const last = `drained-${what}-${RUN_ID}-${label.toLowerCase()}@example.com`;
        const lastSeen = receiver.seen(last, WEBHOOK_ENDPOINTS);
        const res = await call(base, "/auth/password/sign-up", {
          method: "POST",
          headers: fx.client,
          body: { email: last, password: PASSWORD },
        });
        if (res.status !== 200) throw new Error(`the sign-up after the ${what}: ${res.status} ${JSON.stringify(res.body)}`);
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([
          lastSeen,
          new Promise((_, reject) => {
            timer = setTimeout(
              () => reject(new Error(`webhook deliveries not drained ${DRAIN_TIMEOUT_MILLIS / 1000} s after the ${what}`)),
              DRAIN_TIMEOUT_MILLIS,
            );
          }),
        ]).finally(() => clearTimeout(timer));
        for (let count = -1; count !== receiver.arrivals.length;) {
          count = receiver.arrivals.length;
          await new Promise((resolve) => setTimeout(resolve, DRAIN_QUIET_MILLIS));
        }
      };
      // The plain sign-up ran on a warm server; this one may have just been restarted. The warm-up's deliveries
      // are drained before the load, so the figures count the load's own.
      await cannon("warm-up", base, { headers: fx.client, request, pid }, WARMUP);
      await drain("warm-up");
      let started = NaN;
      const row = await cannon(SIGN_UP_WEBHOOKS, base, { headers: fx.client, request, pid, onStart: () => (started = performance.now()) });
      const loadEnded = performance.now();
      report.rows.push(row);
      await drain("load");
      report.webhookDeliveries = deliveryFigures(receiver, started, loadEnded);
    } finally {
      await receiver.close();
    }
  }

  process.stdout.write(`[${label}] robustness and timing probes…\n`);
  const raceEmail = `race-${RUN_ID}@example.com`;
  report.race = (
    await burst(
      Array.from(
        { length: CONNECTIONS },
        () => () =>
          call(base, "/auth/password/sign-up", { method: "POST", headers: fx.client, body: { email: raceEmail, password: PASSWORD } }),
      ),
    )
  ).result;
  report.probe = await timingProbe(base, fx);
}
