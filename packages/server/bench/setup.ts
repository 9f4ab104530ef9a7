/**
 * Setting up through the public API, as a real customer would: a small HTTP
 * client (also used by the probes in scenarios.ts), concurrent bursts of
 * requests, and the fixture every scenario runs against — an owner on the
 * internal project, a project with a publishable key, and a pool of end users
 * whose tokens the scenarios use in turn. Seeding goes over HTTP rather than
 * into the database so the bench needs no knowledge of the schema, and the
 * pool's sign-ups double as the first robustness check (64 concurrent sign-ups).
 */
import { PASSWORD, POOL_SIZE, RUN_ID, SEED } from "./config.ts";

// ---------------------------------------------------------------------------
// A small HTTP client for setup and probes.

export interface ApiResponse {
  status: number;
  body: any;
  knownError: string | null;
  millis: number;
}

export async function call(
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

export function expectStatus(res: ApiResponse, status: number, what: string): void {
  if (res.status !== status) throw new Error(`${what}: expected ${status}, got ${res.status}: ${JSON.stringify(res.body)}`);
}

function clientHeaders(projectId: string, publishableKey: string): Record<string, string> {
  return {
    "x-stack-access-type": "client",
    "x-stack-project-id": projectId,
    "x-stack-publishable-client-key": publishableKey,
  };
}

export interface EndUser {
  id: string;
  email: string;
  accessToken: string;
  refreshToken: string;
}

export interface Fixture {
  client: Record<string, string>;
  /** Server access with a secret key, to create sessions directly. */
  server: Record<string, string>;
  /** Admin access with the project's admin key, for what only owners manage (webhook endpoints). */
  admin: Record<string, string>;
  users: EndUser[];
  /** 64 concurrent sign-ups of distinct e-mails (the user pool). */
  burst: BurstResult;
}

export interface BurstResult {
  statuses: Record<string, number>;
  fiveXx: number;
  timeouts: number;
  slowestMillis: number;
}

export async function burst(requests: (() => Promise<ApiResponse>)[]): Promise<{ result: BurstResult; responses: (ApiResponse | null)[] }> {
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
export async function seed(base: string): Promise<Fixture> {
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
    body: {
      display_name: "Benchmark",
      owner_team_id: me.body.selected_team_id,
      config: { passkey_enabled: true, allow_user_api_keys: true },
    },
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
      has_secret_server_key: true,
      has_super_secret_admin_key: true,
    },
  });
  expectStatus(keys, 200, "create api keys");
  const client = clientHeaders(projectId, keys.body.publishable_client_key);
  const server = {
    "x-stack-access-type": "server",
    "x-stack-project-id": projectId,
    "x-stack-secret-server-key": keys.body.secret_server_key as string,
  };
  const admin = {
    "x-stack-access-type": "admin",
    "x-stack-project-id": projectId,
    "x-stack-super-secret-admin-key": keys.body.super_secret_admin_key as string,
  };

  const emails = Array.from({ length: POOL_SIZE }, (_, i) => `pool-${RUN_ID}-${i}@example.com`);
  const { result, responses } = await burst(
    emails.map(
      (email) => () => call(base, "/auth/password/sign-up", { method: "POST", headers: client, body: { email, password: PASSWORD } }),
    ),
  );
  const users: EndUser[] = [];
  responses.forEach((res, i) => {
    if (res?.status === 200) {
      users.push({ id: res.body.user_id, email: emails[i]!, accessToken: res.body.access_token, refreshToken: res.body.refresh_token });
    }
  });
  if (users.length === 0) throw new Error(`no end user could sign up: ${JSON.stringify(result.statuses)}`);
  return { client, server, admin, users, burst: result };
}

/**
 * `count` more sessions (refresh tokens) of the pool's users, made with
 * server access (`POST /auth/sessions`, no password hash), 64 at a time.
 */
export async function sessionPool(base: string, fx: Fixture, count: number): Promise<string[]> {
  const tokens: string[] = [];
  while (tokens.length < count) {
    const n = Math.min(64, count - tokens.length);
    const created = await Promise.all(
      Array.from({ length: n }, (_, i) =>
        call(base, "/auth/sessions", {
          method: "POST",
          headers: fx.server,
          body: { user_id: fx.users[(tokens.length + i) % fx.users.length]!.id },
        }),
      ),
    );
    for (const res of created) {
      expectStatus(res, 200, "create session");
      tokens.push(res.body.refresh_token as string);
    }
  }
  return tokens;
}

/** A user API key for each pool user, made with server access. */
export async function userApiKeys(base: string, fx: Fixture): Promise<string[]> {
  const { result, responses } = await burst(
    fx.users.map(
      (user) => () =>
        call(base, "/user-api-keys", {
          method: "POST",
          headers: fx.server,
          body: { user_id: user.id, description: "benchmark", expires_at_millis: null },
        }),
    ),
  );
  const keys = responses.flatMap((res) => (res?.status === 200 ? [res.body.value as string] : []));
  if (keys.length !== fx.users.length) throw new Error(`user API keys could not all be created: ${JSON.stringify(result.statuses)}`);
  return keys;
}

export const TEAMS_PER_MEMBER = 50;
const TEAM_MEMBERS = 16;

/**
 * Members of many teams: the first pool users each create TEAMS_PER_MEMBER
 * teams (server access, as creator, so each holds team_admin, whose six
 * system permissions the recursive listing expands).
 */
export async function teamMembersFixture(base: string, fx: Fixture): Promise<{ accessToken: string; teamIds: string[] }[]> {
  const members = fx.users.slice(0, TEAM_MEMBERS);
  return Promise.all(
    members.map(async (user) => {
      const teamIds: string[] = [];
      for (let i = 0; i < TEAMS_PER_MEMBER; i++) {
        const res = await call(base, "/teams", {
          method: "POST",
          headers: fx.server,
          body: { display_name: `Bench team ${i}`, creator_user_id: user.id },
        });
        if (res.status !== 201) throw new Error(`create team: ${res.status} ${JSON.stringify(res.body)}`);
        teamIds.push(res.body.id as string);
      }
      return { accessToken: user.accessToken, teamIds };
    }),
  );
}
