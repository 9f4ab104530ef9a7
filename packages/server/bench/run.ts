/**
 * `npm run bench`: throughput and latency of the hot endpoints against the
 * real server, each as a share of a bare Hono route (the ceiling).
 *
 * For each database (embedded PGlite; then PostgreSQL when DATABASE_URL is
 * set, in a fresh database created and dropped here) the real server runs as
 * a child process, so server and load generator sit on separate cores. The
 * API is seeded through HTTP (owner → project → keys → a pool of end users),
 * then autocannon drives each scenario at 64 connections. Results go to
 * stdout and to BENCHMARKS.md at the repository root.
 *
 * Knobs (environment): BENCH_DURATION seconds per scenario (default 8),
 * BENCH_SCENARIOS comma list to run a subset (hello,floor,me,refresh,sign-in,sign-up),
 * BENCH_CPU_PROF directory for `node --cpu-prof` profiles of the server,
 * BENCH_NO_WRITE=1 to leave BENCHMARKS.md alone.
 */
import autocannon, { type Request as CannonRequest, type Result as CannonResult } from "autocannon";
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { cpus, loadavg, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import postgres from "postgres";
import { hashPassword, verifyPassword } from "../src/domain/users/passwords.ts";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");
const SERVER_ENTRY = "packages/server/src/main.ts";
const HELLO_ENTRY = "packages/server/bench/hello-server.ts";
const CONNECTIONS = 64;
const POOL_SIZE = 64;
const DURATION = Number(process.env.BENCH_DURATION ?? 8);
const WARMUP = 1;
/** Failed sign-ins per kind in the timing probe: 2×60 stays under the limit of 200 per address. */
const PROBE_COUNT = 60;
const PASSWORD = "correct horse battery staple";
const ONLY = process.env.BENCH_SCENARIOS ? new Set(process.env.BENCH_SCENARIOS.split(",").map((s) => s.trim())) : null;
const CPU_PROF_DIR = process.env.BENCH_CPU_PROF ? resolve(process.env.BENCH_CPU_PROF) : null;
const SEED = {
  publishableClientKey: `pck_bench_${randomBytes(20).toString("hex")}`,
  secretServerKey: `ssk_bench_${randomBytes(20).toString("hex")}`,
  superSecretAdminKey: `sak_bench_${randomBytes(20).toString("hex")}`,
};
const RUN_ID = randomBytes(4).toString("hex");

const wanted = (name: string) => !ONLY || ONLY.has(name);

// ---------------------------------------------------------------------------
// Child processes and clean-up (always, also on errors and signals).

const children = new Set<ChildProcess>();
const cleanups: (() => Promise<void>)[] = [];

function killAll(): void {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
}
process.on("exit", killAll);
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    console.error(`\n${signal}: stopping servers`);
    killAll();
    const timer = setTimeout(() => process.exit(130), 5000);
    void Promise.allSettled(cleanups.map((c) => c())).finally(() => {
      clearTimeout(timer);
      process.exit(130);
    });
  });
}

interface Child {
  process: ChildProcess;
  /** The last lines of its output, for error reports. */
  tail(): string;
  /** Lines the server logged at level error (pino level ≥ 50). */
  errorLines(): string[];
}

function startChild(name: string, args: string[], env: NodeJS.ProcessEnv): Child {
  const proc = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
  children.add(proc);
  proc.on("exit", () => children.delete(proc));
  const lines: string[] = [];
  const errors: string[] = [];
  const collect = (chunk: Buffer) => {
    for (const line of chunk.toString("utf8").split("\n")) {
      if (!line.trim()) continue;
      lines.push(line);
      if (lines.length > 60) lines.shift();
      const level = /"level":(\d+)/.exec(line)?.[1];
      if (level && Number(level) >= 50 && errors.length < 20) errors.push(line);
    }
  };
  proc.stdout!.on("data", collect);
  proc.stderr!.on("data", collect);
  return {
    process: proc,
    tail: () => `--- ${name} output (last lines) ---\n${lines.join("\n")}`,
    errorLines: () => errors,
  };
}

async function stopChild(child: Child): Promise<void> {
  const proc = child.process;
  if (proc.exitCode !== null || proc.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => proc.once("exit", () => resolve()));
  proc.kill("SIGTERM");
  const timer = setTimeout(() => proc.kill("SIGKILL"), 8000);
  await exited;
  clearTimeout(timer);
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

async function waitReady(url: string, child: Child, timeoutMillis = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMillis;
  while (Date.now() < deadline) {
    if (child.process.exitCode !== null || child.process.signalCode !== null) {
      throw new Error(`server exited before answering ${url}\n${child.tail()}`);
    }
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
      await res.arrayBuffer();
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`no answer from ${url} within ${timeoutMillis} ms\n${child.tail()}`);
}

// ---------------------------------------------------------------------------
// A small HTTP client for setup and probes.

interface ApiResponse {
  status: number;
  body: any;
  knownError: string | null;
  millis: number;
}

async function call(
  base: string,
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: unknown; timeoutMillis?: number } = {},
): Promise<ApiResponse> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.body !== undefined) headers["content-type"] = "application/json";
  const started = performance.now();
  const res = await fetch(`${base}/api/v1${path}`, {
    method: options.method ?? "GET",
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    signal: AbortSignal.timeout(options.timeoutMillis ?? 30_000),
  });
  const text = await res.text();
  const millis = performance.now() - started;
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // plain text
  }
  return { status: res.status, body, knownError: res.headers.get("x-stack-known-error"), millis };
}

function expectStatus(res: ApiResponse, status: number, what: string): void {
  if (res.status !== status) throw new Error(`${what}: expected ${status}, got ${res.status}: ${JSON.stringify(res.body)}`);
}

function clientHeaders(projectId: string, publishableKey: string): Record<string, string> {
  return {
    "x-stack-access-type": "client",
    "x-stack-project-id": projectId,
    "x-stack-publishable-client-key": publishableKey,
  };
}

interface EndUser {
  email: string;
  accessToken: string;
  refreshToken: string;
}

interface Fixture {
  client: Record<string, string>;
  users: EndUser[];
  /** 64 concurrent sign-ups of distinct e-mails (the user pool). */
  burst: BurstResult;
}

interface BurstResult {
  statuses: Record<string, number>;
  fiveXx: number;
  timeouts: number;
  slowestMillis: number;
}

async function burst(requests: (() => Promise<ApiResponse>)[]): Promise<{ result: BurstResult; responses: (ApiResponse | null)[] }> {
  const settled = await Promise.allSettled(requests.map((r) => r()));
  const statuses: Record<string, number> = {};
  let fiveXx = 0;
  let timeouts = 0;
  let slowest = 0;
  const responses: (ApiResponse | null)[] = [];
  for (const s of settled) {
    if (s.status === "rejected") {
      timeouts += 1;
      statuses["timeout/error"] = (statuses["timeout/error"] ?? 0) + 1;
      responses.push(null);
      continue;
    }
    const key = s.value.knownError ? `${s.value.status} ${s.value.knownError}` : String(s.value.status);
    statuses[key] = (statuses[key] ?? 0) + 1;
    if (s.value.status >= 500) fiveXx += 1;
    slowest = Math.max(slowest, s.value.millis);
    responses.push(s.value);
  }
  return { result: { statuses, fiveXx, timeouts, slowestMillis: slowest }, responses };
}

/** Owner on the internal project → project → keys → a pool of end users. */
async function seed(base: string): Promise<Fixture> {
  const internal = clientHeaders("internal", SEED.publishableClientKey);
  const ownerEmail = `owner-${RUN_ID}@example.com`;
  const owner = await call(base, "/auth/password/sign-up", {
    method: "POST",
    headers: internal,
    body: { email: ownerEmail, password: PASSWORD },
  });
  expectStatus(owner, 200, "owner sign-up");
  const me = await call(base, "/users/me", { headers: { ...internal, "x-stack-access-token": owner.body.access_token } });
  expectStatus(me, 200, "owner /users/me");
  const project = await call(base, "/internal/projects", {
    method: "POST",
    headers: { ...internal, "x-stack-access-token": owner.body.access_token },
    body: { display_name: "Benchmark", owner_team_id: me.body.selected_team_id, config: {} },
  });
  expectStatus(project, 201, "create project");
  const projectId = project.body.id as string;
  const keys = await call(base, "/internal/api-keys", {
    method: "POST",
    headers: {
      "x-stack-access-type": "admin",
      "x-stack-project-id": projectId,
      "x-stack-admin-access-token": owner.body.access_token,
    },
    body: {
      description: "benchmark",
      expires_at_millis: Date.now() + 24 * 3600_000,
      has_publishable_client_key: true,
      has_secret_server_key: false,
      has_super_secret_admin_key: false,
    },
  });
  expectStatus(keys, 200, "create api keys");
  const client = clientHeaders(projectId, keys.body.publishable_client_key);

  const emails = Array.from({ length: POOL_SIZE }, (_, i) => `pool-${RUN_ID}-${i}@example.com`);
  const { result, responses } = await burst(
    emails.map((email) => () => call(base, "/auth/password/sign-up", { method: "POST", headers: client, body: { email, password: PASSWORD } })),
  );
  const users: EndUser[] = [];
  responses.forEach((res, i) => {
    if (res?.status === 200) {
      users.push({ email: emails[i]!, accessToken: res.body.access_token, refreshToken: res.body.refresh_token });
    }
  });
  if (users.length === 0) throw new Error(`no end user could sign up: ${JSON.stringify(result.statuses)}`);
  return { client, users, burst: result };
}

// ---------------------------------------------------------------------------
// Scenarios.

interface Row {
  scenario: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  /** Status codes other than 2xx, socket errors, timeouts. */
  errorDetail: string;
  /** CPU the server process used (1 = one core busy), all its threads. */
  serverCpu: number;
  /** CPU this process (autocannon) used. */
  loadCpu: number;
}

/** CPU seconds (user + system, all threads) a process has used so far; null where /proc is missing. */
function processCpuSeconds(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // Fields 14 and 15 of stat(5) (utime, stime), counted from the state field (3).
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return null;
  }
}
const CLOCK_TICKS = 100;

async function cannon(
  name: string,
  base: string,
  options: { headers?: Record<string, string>; request: CannonRequest; pid: number },
  seconds = DURATION,
): Promise<Row> {
  const serverCpu0 = processCpuSeconds(options.pid);
  const ownCpu0 = process.cpuUsage();
  const started = performance.now();
  const result: CannonResult = await autocannon({
    url: base,
    connections: CONNECTIONS,
    duration: seconds,
    timeout: 20,
    headers: options.headers ?? {},
    requests: [options.request],
  });
  const ok = result["2xx"];
  const details: string[] = [];
  for (const [code, stat] of Object.entries(result.statusCodeStats)) {
    if (!code.startsWith("2")) details.push(`${stat.count}× ${code}`);
  }
  if (result.errors) details.push(`${result.errors} socket errors`);
  if (result.timeouts) details.push(`${result.timeouts} timeouts`);
  const elapsed = (performance.now() - started) / 1000;
  const serverCpu1 = processCpuSeconds(options.pid);
  const own = process.cpuUsage(ownCpu0);
  return {
    serverCpu: serverCpu0 === null || serverCpu1 === null ? NaN : (serverCpu1 - serverCpu0) / elapsed,
    loadCpu: (own.user + own.system) / 1e6 / elapsed,
    scenario: name,
    rps: ok / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.non2xx + result.errors + result.timeouts,
    errorDetail: details.join(", "),
  };
}

function roundRobin<T>(items: T[]): () => T {
  let i = 0;
  return () => items[i++ % items.length]!;
}

function jsonPost(path: string, body: () => unknown): CannonRequest {
  return {
    method: "POST",
    path,
    setupRequest: (req) => ({
      ...req,
      headers: { ...req.headers, "content-type": "application/json" },
      body: JSON.stringify(body()),
    }),
  };
}

async function hello(): Promise<Row> {
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

interface HashRate {
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

interface TimingProbe {
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

interface DatabaseReport {
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
  serverErrors: string[];
  failure: string | null;
}

async function benchDatabase(label: string, databaseUrl: string | null): Promise<DatabaseReport> {
  const report: DatabaseReport = { label, load: [loadavg()[0]!, NaN], hash: null, meDuringSignIn: null, ceiling: null, rows: [], burst: null, race: null, probe: null, serverErrors: [], failure: null };
  const dataDir = mkdtempSync(join(tmpdir(), "latchkey-bench-"));
  let dropDatabase: (() => Promise<void>) | null = null;
  let child: Child | null = null;
  const cleanup = async () => {
    if (child) await stopChild(child);
    if (dropDatabase) await dropDatabase();
    dropDatabase = null;
    rmSync(dataDir, { recursive: true, force: true });
  };
  cleanups.push(cleanup);
  try {
    let url = databaseUrl;
    if (databaseUrl) {
      const name = `latchkey_bench_${randomBytes(6).toString("hex")}`;
      const admin = postgres(databaseUrl, { max: 1, onnotice: () => {} });
      try {
        await admin.unsafe(`CREATE DATABASE ${name}`);
      } catch (error) {
        await admin.end({ timeout: 5 });
        throw error;
      }
      dropDatabase = async () => {
        try {
          await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        } catch (error) {
          console.error(`could not drop database ${name}: ${error instanceof Error ? error.message : error}`);
        } finally {
          await admin.end({ timeout: 5 });
        }
      };
      const u = new URL(databaseUrl);
      u.pathname = `/${name}`;
      url = u.toString();
    }

    if (wanted("hello")) {
      process.stdout.write(`[${label}] hello (ceiling)…\n`);
      report.ceiling = await hello();
    }

    const port = await freePort();
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      LOG_LEVEL: "warn",
      LATCHKEY_DATA_DIR: join(dataDir, "data"),
      STACK_SERVER_SECRET: randomBytes(32).toString("hex"),
      STACK_SEED_INTERNAL_PROJECT_PUBLISHABLE_CLIENT_KEY: SEED.publishableClientKey,
      STACK_SEED_INTERNAL_PROJECT_SECRET_SERVER_KEY: SEED.secretServerKey,
      STACK_SEED_INTERNAL_PROJECT_SUPER_SECRET_ADMIN_KEY: SEED.superSecretAdminKey,
    };
    delete env.DATABASE_URL;
    if (url) env.DATABASE_URL = url;
    const flags = ["--import", "tsx"];
    // One profile per thread (the tsx loader has its own); the biggest is the server's.
    if (CPU_PROF_DIR) flags.push("--cpu-prof", `--cpu-prof-dir=${join(CPU_PROF_DIR, label.toLowerCase())}`);
    const server = startChild(`latchkey (${label})`, [...flags, SERVER_ENTRY, "start"], env);
    child = server;
    const base = `http://127.0.0.1:${port}`;
    process.stdout.write(`[${label}] starting server…\n`);
    await waitReady(`${base}/api/v1`, server);

    process.stdout.write(`[${label}] seeding (owner, project, ${POOL_SIZE} users in parallel)…\n`);
    const fx = await seed(base);
    report.burst = fx.burst;
    const nextUser = roundRobin(fx.users);
    const pid = server.process.pid!;

    if (wanted("floor")) {
      // Not a target: the same request pipeline with no authentication and no database.
      process.stdout.write(`[${label}] GET /api/v1/ (pipeline floor)…\n`);
      const request: CannonRequest = { method: "GET", path: "/api/v1/" };
      await cannon("warm-up", base, { request, pid }, WARMUP);
      report.rows.push(await cannon("GET /api/v1/ (Latchkey pipeline, no auth, no DB)", base, { request, pid }));
    }
    if (wanted("me")) {
      process.stdout.write(`[${label}] GET /users/me…\n`);
      const request: CannonRequest = {
        method: "GET",
        path: "/api/v1/users/me",
        setupRequest: (req) => ({ ...req, headers: { ...req.headers, "x-stack-access-token": nextUser().accessToken } }),
      };
      await cannon("warm-up", base, { headers: fx.client, request, pid }, WARMUP);
      report.rows.push(await cannon("GET /users/me", base, { headers: fx.client, request, pid }));
    }
    if (wanted("refresh")) {
      process.stdout.write(`[${label}] refresh…\n`);
      const request: CannonRequest = {
        method: "POST",
        path: "/api/v1/auth/sessions/current/refresh",
        setupRequest: (req) => ({ ...req, headers: { ...req.headers, "x-stack-refresh-token": nextUser().refreshToken } }),
      };
      await cannon("warm-up", base, { headers: fx.client, request, pid }, WARMUP);
      report.rows.push(await cannon("POST /auth/sessions/current/refresh", base, { headers: fx.client, request, pid }));
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
    if (wanted("sign-up")) {
      process.stdout.write(`[${label}] sign-up…\n`);
      let n = 0;
      const request = jsonPost("/api/v1/auth/password/sign-up", () => ({
        email: `load-${RUN_ID}-${label.toLowerCase()}-${n++}@example.com`,
        password: PASSWORD,
      }));
      report.rows.push(await cannon("POST /auth/password/sign-up", base, { headers: fx.client, request, pid }));
    }

    process.stdout.write(`[${label}] robustness and timing probes…\n`);
    const raceEmail = `race-${RUN_ID}@example.com`;
    report.race = (
      await burst(
        Array.from({ length: CONNECTIONS }, () => () =>
          call(base, "/auth/password/sign-up", { method: "POST", headers: fx.client, body: { email: raceEmail, password: PASSWORD } }),
        ),
      )
    ).result;
    report.probe = await timingProbe(base, fx);
    report.serverErrors = server.errorLines();
  } catch (error) {
    report.failure = error instanceof Error ? error.message : String(error);
    if (child) report.serverErrors = child.errorLines();
    console.error(`[${label}] failed: ${report.failure}`);
  } finally {
    await cleanup();
    cleanups.splice(cleanups.indexOf(cleanup), 1);
    report.load[1] = loadavg()[0]!;
  }
  return report;
}

// ---------------------------------------------------------------------------
// Report.

const TARGETS = [
  { scenario: "GET /users/me", share: 0.5 },
  { scenario: "POST /auth/sessions/current/refresh", share: 0.3 },
];
/** Sign-in counts as hash-bound when the hash is at least this share of its server CPU time. */
const HASH_BOUND_SHARE = 0.7;

const fmt = (n: number, digits = 0) => (Number.isFinite(n) ? n.toFixed(digits) : "–");

function table(report: DatabaseReport): string {
  const ceiling = report.ceiling?.rps ?? NaN;
  const lines = [
    "| scenario | req/s | p50 ms | p99 ms | errors | % of ceiling | server CPU | server CPU ms/req | % of ceiling by CPU | autocannon CPU |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
  ];
  const rows = report.ceiling ? [report.ceiling, ...report.rows] : report.rows;
  for (const row of rows) {
    const errors = row.errors === 0 ? "0" : `**${row.errors}** (${row.errorDetail})`;
    lines.push(
      `| ${row.scenario} | ${fmt(row.rps)} | ${row.p50} | ${row.p99} | ${errors} | ${fmt((row.rps / ceiling) * 100, 1)}% | ` +
        `${fmt(row.serverCpu * 100)}% | ${fmt(cpuPerRequest(row), 2)} | ${fmt(cpuShare(report, row) * 100, 1)}% | ${fmt(row.loadCpu * 100)}% |`,
    );
  }
  return lines.join("\n");
}

/** Server CPU milliseconds per successful request (all threads). */
function cpuPerRequest(row: Row): number {
  return (row.serverCpu * 1000) / row.rps;
}

/** The ceiling's CPU per request over this row's: the req/s ratio one core would give with nothing else running. */
function cpuShare(report: DatabaseReport, row: Row): number {
  return report.ceiling ? cpuPerRequest(report.ceiling) / cpuPerRequest(row) : NaN;
}

function burstLine(b: BurstResult): string {
  const statuses = Object.entries(b.statuses)
    .map(([k, v]) => `${v}× ${k}`)
    .join(", ");
  return `${statuses}; ${b.fiveXx} × 5xx, ${b.timeouts} timeouts; slowest ${fmt(b.slowestMillis)} ms`;
}

function verdicts(report: DatabaseReport): string[] {
  const out: string[] = [];
  const ceiling = report.ceiling?.rps ?? NaN;
  for (const target of TARGETS) {
    const row = report.rows.find((r) => r.scenario === target.scenario);
    if (!row) continue;
    const share = row.rps / ceiling;
    const met = share >= target.share && row.errors === 0;
    out.push(
      `- \`${target.scenario}\` ≥ ${target.share * 100}% of the ceiling: ${fmt(share * 100, 1)}% — **${met ? "met" : "not met"}** ` +
        `(by CPU per request: ${fmt(cpuShare(report, row) * 100, 1)}%)`,
    );
  }
  const signIn = report.rows.find((r) => r.scenario === "POST /auth/password/sign-in");
  const hash = report.hash;
  if (signIn && hash) {
    // CPU time, not wall time: other load on the machine cancels out.
    const share = hash.cpuMillis / cpuPerRequest(signIn);
    const met = share >= HASH_BOUND_SHARE && signIn.errors === 0;
    out.push(
      `- sign-in bound by the hash: one argon2id verify costs ${fmt(hash.cpuMillis, 1)} ms of CPU, one sign-in ${fmt(cpuPerRequest(signIn), 1)} ms of ` +
        `server CPU, so the hash is ${fmt(share * 100)}% of it (bound when ≥ ${HASH_BOUND_SHARE * 100}%) — **${met ? "met" : "not met"}**. ` +
        `Throughput: ${fmt(signIn.rps, 1)} req/s vs ${fmt(hash.rps, 1)} bare verifies/s at ${CONNECTIONS} concurrent in the bench process just before ` +
        `(${fmt((signIn.rps / hash.rps) * 100)}%; one verify alone ${fmt(hash.singleMillis, 1)} ms).`,
    );
  }
  return out;
}

function section(report: DatabaseReport): string {
  const parts = [`### ${report.label}`, "", `Load average ${fmt(report.load[0], 2)} → ${fmt(report.load[1], 2)} during this section.`, ""];
  if (report.failure) parts.push(`**Run failed:** \`${report.failure.split("\n")[0]}\``, "");
  if (report.ceiling || report.rows.length) parts.push(table(report), "");
  const v = verdicts(report);
  if (v.length) parts.push("Targets:", "", ...v, "");
  const facts: string[] = [];
  if (report.burst) facts.push(`- ${POOL_SIZE} concurrent sign-ups (distinct e-mails): ${burstLine(report.burst)}`);
  if (report.race) facts.push(`- ${CONNECTIONS} concurrent sign-ups of one e-mail: ${burstLine(report.race)}`);
  if (report.meDuringSignIn) {
    const m = report.meDuringSignIn;
    facts.push(
      `- One client reading \`GET /users/me\` in a loop: median ${fmt(m.idle, 1)} ms on an idle server, ${fmt(m.busy, 1)} ms during the sign-in load (${m.count} requests)`,
    );
  }
  if (report.probe) {
    const p = report.probe;
    const diff = p.wrongPassword - p.unknownEmail;
    const rel = Math.abs(diff) / Math.max(p.wrongPassword, p.unknownEmail);
    facts.push(
      `- Timing (sequential, ${p.counted} each, median): wrong password ${fmt(p.wrongPassword, 1)} ms vs unknown e-mail ${fmt(p.unknownEmail, 1)} ms ` +
        `(difference ${fmt(diff, 1)} ms, ${fmt(rel * 100, 1)}%; ${rel <= 0.15 ? "indistinguishable" : "**distinguishable**"}); correct password ${fmt(p.correct, 1)} ms` +
        (p.rateLimited ? `; ${p.rateLimited} answered 429` : "") +
        (p.unexpected.length ? `; unexpected: ${p.unexpected.join("; ")}` : ""),
    );
  }
  facts.push(
    report.serverErrors.length
      ? `- Server logged ${report.serverErrors.length} error line(s), first: \`${report.serverErrors[0]!.slice(0, 300)}\``
      : "- Server logged no errors.",
  );
  parts.push("Robustness and security:", "", ...facts, "");
  return parts.join("\n");
}

/** Text from this marker on is written by hand and kept when the file is rewritten. */
const NOTES_MARKER = "<!-- Notes below this line are written by hand; npm run bench keeps them. -->";

function previousNotes(): string {
  try {
    const old = readFileSync(join(ROOT, "BENCHMARKS.md"), "utf8");
    const at = old.indexOf(NOTES_MARKER);
    if (at >= 0) return old.slice(at + NOTES_MARKER.length).replace(/^\n/, "");
  } catch {
    // first run
  }
  return "";
}

/** The commit measured, and whether the server's sources differ from it. */
function revision(): string {
  if (process.env.BENCH_REVISION) return process.env.BENCH_REVISION;
  try {
    const git = (...args: string[]) => execFileSync("git", ["-C", ROOT, ...args], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
    const head = git("rev-parse", "--short", "HEAD");
    const dirty = git("status", "--porcelain", "--", "packages/server/src", "packages/shared/src") !== "";
    return `commit ${head}${dirty ? " plus uncommitted changes in packages/*/src" : ""}`;
  } catch {
    return "unknown revision (no git)";
  }
}

function machine(): string[] {
  let model = cpus()[0]?.model ?? "unknown";
  try {
    model = /model name\s*:\s*(.+)/.exec(readFileSync("/proc/cpuinfo", "utf8"))?.[1]?.trim() ?? model;
  } catch {
    // not Linux
  }
  return [`${cpus().length} cores (${model})`, `Node ${process.version}`, `${process.platform} ${process.arch}`];
}

async function main(): Promise<void> {
  const started = Date.now();
  const load0 = loadavg()[0]!;
  const reports: DatabaseReport[] = [await benchDatabase("PGlite", null)];
  const pg = process.env.DATABASE_URL;
  if (pg) reports.push(await benchDatabase("PostgreSQL", pg));
  const load1 = loadavg()[0]!;

  const body = [
    "# Benchmarks",
    "",
    "Written by `npm run bench` (packages/server/bench/run.ts); rerun to refresh. Each figure is compared with a bare",
    "Hono route on @hono/node-server (the same framework and adapter) measured on the same machine in the same run:",
    "the ceiling. Server and hello app each run as one child process; autocannon runs in the parent, so load",
    `generator and server use separate cores. ${CONNECTIONS} connections, ${DURATION} s per scenario after a ${WARMUP} s warm-up`,
    "(all but sign-in and sign-up), one autocannon worker, a pool of 64 signed-up users whose tokens are used in turn.",
    "",
    "- req/s counts 2xx answers only; any other answer, socket error or timeout is an error and shows in the table.",
    "- `GET /api/v1/` (the welcome text, no credentials) is not a target: it is Latchkey's own request pipeline with",
    "  no authentication and no database, about the most any endpoint could reach.",
    "- server CPU: CPU the Latchkey process used (all threads; 100% = one core busy) during the scenario, and per",
    "  request; \"% of ceiling by CPU\" is the hello server's CPU per request over the scenario's. PostgreSQL's own",
    "  processes are not included. These figures hold up better than req/s when other work runs on the machine.",
    "",
    `- Date: ${new Date(started).toISOString()}, whole run ${fmt((Date.now() - started) / 1000)} s`,
    `- Server: ${revision()}`,
    `- Machine: ${machine().join("; ")}; load average ${fmt(load0, 2)} at start, ${fmt(load1, 2)} at end`,
    `- Password hash: argon2id (19 MiB, t=2, p=1) on the libuv pool (${process.env.UV_THREADPOOL_SIZE ?? 4} threads)`,
    "",
    "## Results",
    "",
    ...reports.map((r) => section(r)),
    "## Targets",
    "",
    "Benchmarks, not tests: `GET /users/me` ≥ 50% of the ceiling; refresh ≥ 30%; sign-in bound by the hash",
    "(argon2id is the cost by design; the rest of the request should not matter next to it).",
    "",
    "## How to run",
    "",
    "```sh",
    "npm run bench                                                      # PGlite only",
    "DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench # PGlite, then PostgreSQL",
    "```",
    "",
    "With `DATABASE_URL`, a fresh database `latchkey_bench_<random>` is created on that server and dropped afterwards",
    "(the role needs CREATEDB). Options: `BENCH_DURATION=<seconds>`, `BENCH_SCENARIOS=hello,floor,me,refresh,sign-in,sign-up`,",
    "`BENCH_CPU_PROF=<dir>` (the server runs with `node --cpu-prof`; open the largest `.cpuprofile` in Chrome DevTools),",
    "`BENCH_NO_WRITE=1` (leave this file alone). Other load on the machine skews req/s; compare ratios and CPU per request.",
    "",
    NOTES_MARKER,
    previousNotes(),
  ].join("\n");

  process.stdout.write(`\n${reports.map((r) => section(r)).join("\n")}\n`);
  if (!process.env.BENCH_NO_WRITE) {
    writeFileSync(join(ROOT, "BENCHMARKS.md"), body);
    process.stdout.write(`Wrote ${join(ROOT, "BENCHMARKS.md")}\n`);
  }
  if (reports.some((r) => r.failure)) process.exitCode = 1;
}

try {
  await main();
} finally {
  killAll();
}
