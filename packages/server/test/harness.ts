/**
 * A real Latchkey instance for one test file: the same startup as
 * `npm start`, on a fresh database (in-memory PGlite, or a new database on
 * the PostgreSQL server of TEST_DATABASE_URL), served through app.request()
 * or, with listen(), on a real loopback port.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import type { Server } from "node:http";
import { createServer, type AddressInfo } from "node:net";
import { Writable } from "node:stream";
import { pino, type Logger } from "pino";
import postgres from "postgres";
import { inject } from "vitest";
import { notifyReplicas, type CacheEvent } from "../src/cache/bus.ts";
import type { ServerConfig } from "../src/config.ts";
import { connectDatabase, openPGlite, type Database } from "../src/db/connect.ts";
import { createHttpServer } from "../src/process/listen.ts";
import { startInstance, type Instance } from "../src/server.ts";
import { TestClock } from "./test-clock.ts";

export { TestClock };

declare module "vitest" {
  export interface ProvidedContext {
    /** A migrated PGlite data directory (a tar file), for `loadDataDir`; set by ./database-template.ts. */
    pgliteTemplate?: string;
    /** A migrated PostgreSQL database to create test databases from; set by ./database-template.ts. */
    postgresTemplate?: string;
  }
}

export const SEED_KEYS = {
  publishableClientKey: "pck_test_internal_publishable_key_000000000000000000",
  secretServerKey: "ssk_test_internal_secret_server_key_00000000000000000",
  superSecretAdminKey: "sak_test_internal_super_secret_admin_key_000000000000",
};

export interface TestResponse {
  status: number;
  headers: Headers;
  /** Parsed JSON when the response is JSON, else the text. */
  body: any;
  text: string;
}

export interface RequestOptions {
  method?: string;
  /** Sets x-stack-access-type / project / keys for you. */
  as?: Auth;
  body?: unknown;
  headers?: Record<string, string>;
  query?: Record<string, string | number | boolean>;
}

export type Auth = {
  type: "client" | "server" | "admin";
  projectId: string;
  publishableClientKey?: string;
  secretServerKey?: string;
  superSecretAdminKey?: string;
  adminAccessToken?: string;
  accessToken?: string;
  allowAnonymous?: boolean;
};

export interface TestServer {
  instance: Instance;
  config: ServerConfig;
  /** What time it is for this server (shared with its replicas): move it instead of sleeping (test-clock.ts). */
  clock: TestClock;
  /** Log lines the server wrote (JSON objects). */
  logs: Record<string, unknown>[];
  /**
   * Resolves once this server's caches have applied every cache event committed before the call, its own
   * writes' and its replicas': it sends a marker by NOTIFY and waits to hear it, which PostgreSQL delivers
   * after every notification of an earlier commit (this process hears its own writes that way too).
   */
  cachesCaughtUp(): Promise<void>;
  request(path: string, options?: RequestOptions): Promise<TestResponse>;
  /** Binds a loopback port (any free one, or `port`); returns the base URL (without /api/v1). */
  listen(port?: number): Promise<string>;
  close(): Promise<void>;
  internal: { client: Auth; server: Auth; admin: Auth };
  /** The PostgreSQL URL of this server's database (null on PGlite). */
  databaseUrl: string | null;
}

/**
 * `replicaOf`: start a second instance on the same PostgreSQL database as
 * another test server (a replica behind the same load balancer).
 */
export async function createTestServer(
  overrides: Partial<ServerConfig> = {},
  options: { replicaOf?: TestServer } = {},
): Promise<TestServer> {
  const { database, drop, url } = options.replicaOf ? await replicaDatabase(options.replicaOf) : await testDatabase();
  const { logger, logs } = capturingLogger();
  const config: ServerConfig = {
    production: false,
    port: 0,
    apiUrl: "http://localhost:8102",
    databaseUrl: null,
    dataDir: "",
    pgliteSharedBuffers: null,
    pgliteFsync: false,
    serverSecret: options.replicaOf?.config.serverSecret ?? randomBytes(32).toString("hex"),
    accessTokenExpirationMillis: 10 * 60 * 1000,
    seedInternalKeys: SEED_KEYS,
    email: null,
    // The test SMTP peers listen on loopback.
    smtpAllowPrivateHosts: true,
    // The test receivers listen on loopback.
    webhooksAllowPrivateUrls: true,
    checkResponses: true,
    botChallenge: null,
    smtpAllowInsecureAuth: false,
    passkeyTestChallenge: false,
    sharedOAuthCredentials: {},
    oauthMockUrl: null,
    appleJwksUrl: "https://appleid.apple.com/auth/keys",
    oauthProviderTimeoutMillis: 6000,
    dashboardDir: null,
    sdkDir: null,
    trustedProxies: { proxies: [], header: "x-forwarded-for" },
    metricsToken: null,
    accessLog: true,
    rateLimits: true,
    aiChat: null,
    // No platform account; tests of payments point this at their stand-in (stripe-stand-in.ts).
    stripe: { secretKey: null, webhookSecret: null, apiUrl: "https://api.stripe.com" },
    dataVaultSecrets: null,
    ...overrides,
  };
  // Replicas live in the same world as their primary: one clock for both.
  const clock = options.replicaOf?.clock ?? new TestClock();
  const instance = await startInstance(config, { database, logger, clock });
  let httpServer: Server | null = null;

  const request = async (path: string, options: RequestOptions = {}): Promise<TestResponse> => {
    const headers = new Headers(options.headers);
    if (options.as) for (const [k, v] of Object.entries(authHeaders(options.as))) headers.set(k, v);
    let body: BodyInit | undefined;
    if (options.body !== undefined) {
      if (typeof options.body === "string") body = options.body;
      else {
        body = JSON.stringify(options.body);
        if (!headers.has("content-type")) headers.set("content-type", "application/json");
      }
    }
    const qs = options.query ? `?${new URLSearchParams(Object.entries(options.query).map(([k, v]) => [k, String(v)]))}` : "";
    const url = `http://localhost/api/v1${path}${qs}`;
    const res = await instance.app.request(url, { method: options.method ?? "GET", headers, body });
    const text = await res.text();
    let parsed: unknown = text;
    if ((res.headers.get("content-type") ?? "").includes("json")) parsed = JSON.parse(text);
    return { status: res.status, headers: res.headers, body: parsed, text };
  };

  return {
    instance,
    config,
    clock,
    logs,
    request,
    cachesCaughtUp: () => cachesCaughtUp(instance),
    async listen(port = 0) {
      // Served as main.ts serves it (process/listen.ts), so listening tests cover the server's own request path.
      httpServer = createHttpServer(instance.app.fetch);
      await new Promise<void>((resolve) => httpServer!.listen(port, "127.0.0.1", () => resolve()));
      return `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}`;
    },
    async close() {
      if (httpServer) await new Promise((resolve) => httpServer!.close(resolve));
      await instance.close();
      await drop();
    },
    databaseUrl: url,
    internal: {
      client: { type: "client", projectId: "internal", publishableClientKey: SEED_KEYS.publishableClientKey },
      server: { type: "server", projectId: "internal", secretServerKey: SEED_KEYS.secretServerKey },
      admin: { type: "admin", projectId: "internal", superSecretAdminKey: SEED_KEYS.superSecretAdminKey },
    },
  };
}

async function cachesCaughtUp(instance: Instance): Promise<void> {
  const { bus, db } = instance.services;
  const id = randomUUID();
  let stop = () => {};
  const heard = new Promise<void>((resolve) => {
    stop = bus.onEvent((event) => {
      if (event.t === "marker" && event.id === id) resolve();
    });
  });
  try {
    await notifyReplicas(db, JSON.stringify({ t: "marker", id } satisfies CacheEvent));
    await heard;
  } finally {
    stop();
  }
}

/** A pino logger whose lines are kept, parsed, in `logs`. */
export function capturingLogger(): { logger: Logger; logs: Record<string, any>[] } {
  const logs: Record<string, any>[] = [];
  const logger = pino(
    { level: "info" },
    new Writable({
      write(chunk, _enc, done) {
        for (const line of String(chunk).split("\n").filter(Boolean)) logs.push(JSON.parse(line));
        done();
      },
    }),
  );
  return { logger, logs };
}

export function authHeaders(auth: Auth): Record<string, string> {
  const h: Record<string, string> = { "x-stack-access-type": auth.type, "x-stack-project-id": auth.projectId };
  if (auth.publishableClientKey) h["x-stack-publishable-client-key"] = auth.publishableClientKey;
  if (auth.secretServerKey) h["x-stack-secret-server-key"] = auth.secretServerKey;
  if (auth.superSecretAdminKey) h["x-stack-super-secret-admin-key"] = auth.superSecretAdminKey;
  if (auth.adminAccessToken) h["x-stack-admin-access-token"] = auth.adminAccessToken;
  if (auth.accessToken) h["x-stack-access-token"] = auth.accessToken;
  if (auth.allowAnonymous) h["x-stack-allow-anonymous-user"] = "true";
  return h;
}

/** The migrated template of this test run; none outside Vitest (the benchmark uses the harness too), which migrates afresh. */
function injected<K extends "pgliteTemplate" | "postgresTemplate">(key: K) {
  return process.env.VITEST ? inject(key) : undefined;
}

type TestDatabase = { database: Database; drop: () => Promise<void>; url: string | null };

async function replicaDatabase(primary: TestServer): Promise<TestDatabase> {
  if (!primary.databaseUrl) throw new Error("Replicas need PostgreSQL (LATCHKEY_TEST_DB=postgres)");
  return {
    database: await connectDatabase({ kind: "postgres", url: primary.databaseUrl, max: 10 }),
    drop: async () => {},
    url: primary.databaseUrl,
  };
}

async function testDatabase(): Promise<TestDatabase> {
  if (process.env.LATCHKEY_TEST_DB !== "postgres") {
    // Projects with the template global setup (vitest.config.ts) start from a migrated copy.
    const template = injected("pgliteTemplate");
    const pglite = template ? await openPGlite({ loadDataDir: new Blob([readFileSync(template)]) }) : undefined;
    return { database: await connectDatabase({ kind: "pglite", pglite }), drop: async () => {}, url: null };
  }
  const base = process.env.TEST_DATABASE_URL;
  if (!base) throw new Error("LATCHKEY_TEST_DB=postgres needs TEST_DATABASE_URL");
  const name = `latchkey_test_${randomBytes(6).toString("hex")}`;
  const admin = postgres(base, { max: 1, onnotice: () => {} });
  const template = injected("postgresTemplate");
  await admin.unsafe(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ""}`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  const database = await connectDatabase({ kind: "postgres", url: url.toString(), max: 10 });
  return {
    database,
    url: url.toString(),
    drop: async () => {
      await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}

/** Asserts a coded error: status, code, header, and (optionally) details. */
export function expectKnownError(res: TestResponse, code: string, status?: number): void {
  const problems: string[] = [];
  if (res.headers.get("x-stack-known-error") !== code) {
    problems.push(`x-stack-known-error was ${res.headers.get("x-stack-known-error")}`);
  }
  if (typeof res.body !== "object" || res.body?.code !== code) problems.push(`body.code was ${res.body?.code}`);
  if (status !== undefined && res.status !== status) problems.push(`status was ${res.status}`);
  if (problems.length > 0) {
    throw new Error(`Expected ${code}${status ? ` (${status})` : ""}: ${problems.join("; ")}\n${res.text}`);
  }
}

/** A loopback port free right now: for a server that must know its own URL (its apiUrl) before it listens. */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}
