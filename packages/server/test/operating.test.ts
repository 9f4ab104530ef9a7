/**
 * Operating the server: health (http/health.ts, db/readiness.ts), metrics
 * (http/metrics.ts, lib/metrics.ts), the access log and request id
 * (http/access-log.ts), and the 404s outside the dashboard's routes.
 */
import { sql } from "drizzle-orm";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createApp } from "../src/app.ts";
import { READINESS_CACHE_MILLIS, Readiness } from "../src/db/readiness.ts";
import { createProject, PASSWORD, passwordSignIn, signUpUser, type Project } from "./fixtures.ts";
import { authHeaders, createTestServer, TestClock, type TestServer } from "./harness.ts";

let server: TestServer;
let project: Project;
let base: string;
let root: string;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "latchkey-operating-"));
  mkdirSync(join(root, "assets"));
  writeFileSync(join(root, "index.html"), "<!doctype html><html><head></head><body></body></html>");
  writeFileSync(join(root, "assets", "app-abc.js"), "console.log(1)");
  server = await createTestServer({ dashboardDir: root });
  project = await createProject(server);
  base = await server.listen();
});

afterAll(async () => {
  await server?.close();
  rmSync(root, { recursive: true, force: true });
});

/** Prometheus text format: `name{labels} value` lines; comments skipped. */
function parseMetrics(text: string): { name: string; labels: Record<string, string>; value: number }[] {
  const samples = [];
  for (const line of text.split("\n")) {
    if (line === "" || line.startsWith("#")) continue;
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) throw new Error(`Not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, key, value] of (match[2] ?? "").matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[key!] = value!;
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return samples;
}

async function scrape() {
  const res = await fetch(`${base}/metrics`);
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
  return parseMetrics(await res.text());
}

function valueOf(samples: ReturnType<typeof parseMetrics>, name: string, labels: Record<string, string>): number {
  const found = samples.find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  return found?.value ?? 0;
}

describe("health", () => {
  test("/health/live and /health/ready answer JSON, not the dashboard", async () => {
    const live = await fetch(`${base}/health/live`);
    expect(live.status).toBe(200);
    expect(live.headers.get("content-type")).toMatch(/^application\/json/);
    expect(await live.json()).toEqual({ status: "ok" });
    const ready = await fetch(`${base}/health/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: "ok", checks: { database: "ok", migrations: "ok" } });
    expect((await fetch(`${base}/health/ready`, { method: "HEAD" })).status).toBe(200);
    expect((await fetch(`${base}/health/ready`, { method: "POST" })).status).toBe(405);
  });

  test("a migration missing from the database makes the replica not ready, naming it", async () => {
    const clock = new TestClock();
    clock.freeze();
    const readiness = new Readiness(server.instance.services.database, clock);
    expect(await readiness.check()).toEqual({ ready: true });
    const last = await lastMigration();
    await server.instance.services.db.execute(sql`delete from latchkey_migrations where name = ${last}`);
    try {
      // The answer is kept for a moment: a probe storm is not a query storm.
      expect(await readiness.check()).toEqual({ ready: true });
      clock.advance(READINESS_CACHE_MILLIS);
      const result = await readiness.check();
      expect(result).toMatchObject({ ready: false, failed: "migrations", pendingMigrations: [last] });
      const services = server.instance.services;
      const app = createApp({ ...services, readiness }, []);
      const res = await app.request("http://localhost/health/ready");
      expect(res.status).toBe(503);
      expect(await res.json()).toMatchObject({
        status: "unavailable",
        failed: "migrations",
        checks: { database: "ok", migrations: "failed", pending_migrations: [last] },
      });
    } finally {
      await server.instance.services.db.execute(sql`insert into latchkey_migrations (name) values (${last})`);
    }
  });

  test("concurrent probes share one check", async () => {
    const readiness = new Readiness(server.instance.services.database, server.clock);
    const checks = Array.from({ length: 50 }, () => readiness.check());
    expect(new Set(checks).size).toBe(1);
    expect(await checks[0]).toEqual({ ready: true });
  });

  test("/health/ready turns 503 with JSON when the database goes away", async () => {
    const outage = await createTestServer();
    try {
      outage.clock.freeze();
      const url = await outage.listen();
      expect((await fetch(`${url}/health/ready`)).status).toBe(200);
      await outage.instance.services.database.close();
      outage.clock.advance(READINESS_CACHE_MILLIS);
      const res = await fetch(`${url}/health/ready`);
      expect(res.status).toBe(503);
      expect(res.headers.get("content-type")).toMatch(/^application\/json/);
      const body = await res.json();
      expect(body).toMatchObject({ status: "unavailable", failed: "database", checks: { database: "failed" } });
      expect(body.message).toMatch(/^The database did not answer: /);
      // The process itself is fine: a restart would not help, so liveness stays green.
      expect((await fetch(`${url}/health/live`)).status).toBe(200);
    } finally {
      // Its database is closed already; closing the rest may complain about that.
      await outage.close().catch(() => {});
    }
  });
});

async function lastMigration(): Promise<string> {
  const result = await server.instance.services.db.execute(sql`select name from latchkey_migrations order by name desc limit 1`);
  const rows = (Array.isArray(result) ? result : (result as unknown as { rows: { name: string }[] }).rows) as { name: string }[];
  return rows[0]!.name;
}

describe("paths outside the API", () => {
  test.each(["/health", "/health/other", "/metrics/x", "/sdk/latchkey-js.tgz", "/no-such-page", "/wp-login.php", "/projectsx"])(
    "%s is a 404, not the dashboard's page",
    async (path) => {
      const res = await fetch(`${base}${path}`);
      expect(res.status).toBe(404);
      expect(res.headers.get("content-type")).not.toMatch(/html/);
    },
  );

  test.each(["/", "/projects", "/projects/p1/users/u1", "/new-project", "/handler/sign-in", "/purchase/abc_def", "/assets/app-abc.js"])(
    "%s is the dashboard's",
    async (path) => {
      expect((await fetch(`${base}${path}`)).status).toBe(200);
    },
  );
});

describe("metrics", () => {
  test("count requests by route pattern, and sign-ins by method and outcome", async () => {
    const user = await signUpUser(server, project);
    const before = await scrape();
    const success = { method: "password", outcome: "success", error_code: "" };
    const mismatch = { method: "password", outcome: "failure", error_code: "EMAIL_PASSWORD_MISMATCH" };
    const signInRoute = { method: "POST", route: "/api/v1/auth/password/sign-in" };

    expect((await passwordSignIn(server, project, user.email)).status).toBe(200);
    expect((await passwordSignIn(server, project, user.email, `${PASSWORD}!`)).status).toBe(400);
    const byId = await fetch(`${base}/api/v1/users/${user.userId}`, {
      headers: authHeaders(project.server),
    });
    expect(byId.status).toBe(200);

    const after = await scrape();
    expect(valueOf(after, "latchkey_sign_ins_total", success) - valueOf(before, "latchkey_sign_ins_total", success)).toBe(1);
    expect(valueOf(after, "latchkey_sign_ins_total", mismatch) - valueOf(before, "latchkey_sign_ins_total", mismatch)).toBe(1);
    const count = (samples: typeof before, status: string) => valueOf(samples, "latchkey_http_requests_total", { ...signInRoute, status });
    expect(count(after, "200") - count(before, "200")).toBe(1);
    expect(count(after, "400") - count(before, "400")).toBe(1);
    expect(valueOf(after, "latchkey_http_request_duration_seconds_count", signInRoute)).toBeGreaterThanOrEqual(2);
    // The pattern, never the path: no series names a user.
    expect(
      valueOf(after, "latchkey_http_requests_total", { method: "GET", route: "/api/v1/users/:user_id", status: "200" }),
    ).toBeGreaterThan(0);
    expect(after.some((s) => Object.values(s.labels).some((v) => v.includes(user.userId)))).toBe(false);

    // The operating gauges and the process's own metrics are there.
    expect(valueOf(after, "latchkey_database_ready", {})).toBe(1);
    expect(after.some((s) => s.name === "latchkey_email_queue_depth")).toBe(true);
    expect(valueOf(after, "latchkey_database_max_connections", {})).toBeGreaterThanOrEqual(1);
    expect(after.some((s) => s.name === "process_cpu_user_seconds_total")).toBe(true);
  });

  test("in production: 404 without LATCHKEY_METRICS_TOKEN, the bearer token required with one", async () => {
    const services = server.instance.services;
    const production = (metricsToken: string | null) =>
      createApp({ ...services, config: { ...services.config, production: true, metricsToken } }, []);
    expect((await production(null).request("http://localhost/metrics")).status).toBe(404);

    const token = "metrics-token-0123456789abcdef";
    const app = production(token);
    const get = (authorization?: string) => app.request("http://localhost/metrics", { headers: authorization ? { authorization } : {} });
    const missing = await get();
    expect(missing.status).toBe(401);
    expect(missing.headers.get("www-authenticate")).toMatch(/^Bearer/);
    expect((await get(`Bearer ${token}x`)).status).toBe(401);
    expect((await get(`Bearer ${token.slice(0, -1)}`)).status).toBe(401);
    expect((await get(`Basic ${token}`)).status).toBe(401);
    const ok = await get(`Bearer ${token}`);
    expect(ok.status).toBe(200);
    expect(parseMetrics(await ok.text()).some((s) => s.name === "latchkey_http_requests_total")).toBe(true);
  });
});

describe("access log", () => {
  test("one line per request: method, route pattern, status, duration, and the request id it answers with", async () => {
    const user = await signUpUser(server, project);
    // Twice: the first read of a user waits for the database, the second is answered from the cache at once.
    for (let i = 0; i < 2; i++) {
      const res = await fetch(`${base}/api/v1/users/me`, {
        headers: { ...authHeaders(user.as), "x-request-id": `lb-4f2a.${i}` },
      });
      expect(res.status).toBe(200);
      // One id per response (x-stack-request-id); no other id header is added.
      const id = res.headers.get("x-stack-request-id")!;
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      expect(res.headers.get("x-request-id")).toBeNull();
      const lines = server.logs.filter((l) => l.msg === "request" && l.reqId === id);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatchObject({ level: 30, method: "GET", route: "/api/v1/users/me", status: 200, upstreamId: `lb-4f2a.${i}` });
      expect(typeof lines[0]!.ms).toBe("number");
      const text = JSON.stringify(lines[0]);
      for (const secret of [user.accessToken, project.client.publishableClientKey!, user.userId]) expect(text).not.toContain(secret);
    }
  });

  test("requests under way at once are each logged under their own route, answered at once or after a wait", async () => {
    const user = await signUpUser(server, project);
    const preflight = { origin: "https://app.example", "access-control-request-method": "GET" };
    // The sign-in waits (its hash) while the others are answered; each line names its own route.
    const [signIn, ...others] = await Promise.all([
      passwordSignIn(server, project, user.email),
      fetch(`${base}/api/v1/no/such/thing`),
      fetch(`${base}/health/live`),
      fetch(`${base}/api/v1/users/me`, { headers: authHeaders(user.as) }),
      fetch(`${base}/api/v1/users/me`, { method: "OPTIONS", headers: preflight }),
    ]);
    const logged = (res: { headers: Headers }) =>
      server.logs.filter((l) => l.msg === "request" && l.reqId === res.headers.get("x-stack-request-id")).map((l) => [l.route, l.status]);
    expect(logged(signIn)).toEqual([["/api/v1/auth/password/sign-in", 200]]);
    expect(others.map(logged)).toEqual([
      [["(unmatched)", 404]],
      [["/health/live", 200]],
      [["/api/v1/users/me", 200]],
      [["(preflight)", 204]],
    ]);
  });

  test("with the logger's level above info no line is written, the request still counted; lowered, lines come back", async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const logger = pino({ level: "warn" }, sink);
    const app = createApp({ ...server.instance.services, logger }, []);
    const live = { method: "GET", route: "/health/live", status: "200" };
    const before = valueOf(await scrape(), "latchkey_http_requests_total", live);
    expect((await app.request("http://localhost/health/live", { headers: { "x-request-id": "lb-1" } })).status).toBe(200);
    expect(lines).toEqual([]);
    // The scrape itself is counted under /metrics, not /health/live.
    expect(valueOf(await scrape(), "latchkey_http_requests_total", live) - before).toBe(1);

    logger.level = "info";
    const res = await app.request("http://localhost/health/live", { headers: { "x-request-id": "lb-2" } });
    expect(lines.map((line) => JSON.parse(line))).toEqual([
      expect.objectContaining({ msg: "request", reqId: res.headers.get("x-stack-request-id"), route: "/health/live", upstreamId: "lb-2" }),
    ]);
  });

  test("an incoming request id that is not safe to log is left out", async () => {
    const res = await fetch(`${base}/health/live`, { headers: { "x-request-id": "x".repeat(200) } });
    const id = res.headers.get("x-stack-request-id");
    const line = server.logs.find((l) => l.msg === "request" && l.reqId === id);
    expect(line).toMatchObject({ route: "/health/live", status: 200 });
    expect(line).not.toHaveProperty("upstreamId");
    // Paths no route answers are logged under one name, not their own.
    await fetch(`${base}/api/v1/no/such/thing?code=hunter2`);
    expect(server.logs.some((l) => l.msg === "request" && l.route === "(unmatched)" && l.status === 404)).toBe(true);
    expect(server.logs.some((l) => JSON.stringify(l).includes("no/such") || JSON.stringify(l).includes("hunter2"))).toBe(false);
  });
});
