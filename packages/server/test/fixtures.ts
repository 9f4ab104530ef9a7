/**
 * Building blocks for tests: an owner on the internal project, a project they
 * own with fresh keys, and end users of that project.
 */
import { expect } from "vitest";
import type { ServerConfig } from "../src/config.ts";
import { createTestServer, expectKnownError, type Auth, type TestResponse, type TestServer } from "./harness.ts";

let counter = 0;
/** A well-formed id that names nothing. */
export const UNKNOWN_UUID = "00000000-0000-4000-8000-000000000000";

export function uniqueEmail(prefix = "user"): string {
  counter += 1;
  return `${prefix}-${Date.now().toString(36)}-${counter}@example.com`;
}

export const PASSWORD = "correct horse battery staple";

export interface Owner {
  email: string;
  userId: string;
  accessToken: string;
  refreshToken: string;
  teamId: string;
}

export async function signUpOwner(server: TestServer): Promise<Owner> {
  const email = uniqueEmail("owner");
  const res = await server.request("/auth/password/sign-up", {
    method: "POST",
    as: server.internal.client,
    body: { email, password: PASSWORD },
  });
  expect(res.status, res.text).toBe(200);
  const me = await server.request("/users/me", {
    as: { ...server.internal.client, accessToken: res.body.access_token },
  });
  expect(me.status, me.text).toBe(200);
  return {
    email,
    userId: res.body.user_id,
    accessToken: res.body.access_token,
    refreshToken: res.body.refresh_token,
    teamId: me.body.selected_team_id,
  };
}

export interface Project {
  id: string;
  owner: Owner;
  client: Auth;
  server: Auth;
  admin: Auth;
  /** Admin access through the owner's token instead of a key. */
  ownerAdmin: Auth;
}

export async function createProject(server: TestServer, owner?: Owner, config: Record<string, unknown> = {}): Promise<Project> {
  owner ??= await signUpOwner(server);
  const created = await server.request("/internal/projects", {
    method: "POST",
    as: { ...server.internal.client, accessToken: owner.accessToken },
    body: { display_name: "Test project", owner_team_id: owner.teamId, config },
  });
  expect(created.status, created.text).toBe(201);
  const id = created.body.id as string;
  const ownerAdmin: Auth = { type: "admin", projectId: id, adminAccessToken: owner.accessToken };
  const keys = await server.request("/internal/api-keys", {
    method: "POST",
    as: ownerAdmin,
    body: {
      description: "test keys",
      expires_at_millis: Date.now() + 24 * 3600_000,
      has_publishable_client_key: true,
      has_secret_server_key: true,
      has_super_secret_admin_key: true,
    },
  });
  expect(keys.status, keys.text).toBe(200);
  return {
    id,
    owner,
    ownerAdmin,
    client: { type: "client", projectId: id, publishableClientKey: keys.body.publishable_client_key },
    server: { type: "server", projectId: id, secretServerKey: keys.body.secret_server_key },
    admin: { type: "admin", projectId: id, superSecretAdminKey: keys.body.super_secret_admin_key },
  };
}

/**
 * A test server and one project on it, as most suites start (in beforeAll): `server` overrides the server's
 * config, `project` is the project's. The server is closed again when the project cannot be made.
 */
export async function serverWithProject(
  options: { server?: Partial<ServerConfig>; project?: Record<string, unknown> } = {},
): Promise<{ server: TestServer; project: Project }> {
  const server = await createTestServer(options.server);
  try {
    return { server, project: await createProject(server, undefined, options.project) };
  } catch (error) {
    await server.close();
    throw error;
  }
}

export interface EndUser {
  email: string;
  userId: string;
  accessToken: string;
  refreshToken: string;
  /** Client auth acting as this user. */
  as: Auth;
}

export async function signUpUser(server: TestServer, project: Pick<Project, "client">, email = uniqueEmail()): Promise<EndUser> {
  const res = await server.request("/auth/password/sign-up", {
    method: "POST",
    as: project.client,
    body: { email, password: PASSWORD },
  });
  expect(res.status, res.text).toBe(200);
  return {
    email,
    userId: res.body.user_id,
    accessToken: res.body.access_token,
    refreshToken: res.body.refresh_token,
    as: { ...project.client, accessToken: res.body.access_token },
  };
}

// ---------------------------------------------------------------------------
// Helpers for the endpoint suites (users, password, sessions, projects, …).

/** The payload of a JWT, without verifying it. */
export function jwtPayload(token: string): Record<string, any> {
  const part = token.split(".")[1];
  if (!part) throw new Error(`Not a JWT: ${token}`);
  return JSON.parse(Buffer.from(part, "base64url").toString("utf8"));
}

/** The session (refresh token id) an access token belongs to. */
export function sessionIdOf(accessToken: string): string {
  return jwtPayload(accessToken).refresh_token_id as string;
}

/** Asserts a SCHEMA_ERROR whose message lists exactly `messages` (in order). */
export function expectSchemaError(res: TestResponse, method: string, path: string, messages: string[]): void {
  expectKnownError(res, "SCHEMA_ERROR", 400);
  const text = `Request validation failed on ${method} /api/v1${path}:\n${messages.map((m) => `  - ${m}`).join("\n")}`;
  expect(res.body).toEqual({ code: "SCHEMA_ERROR", details: { message: text }, error: text });
}

/** Asserts a SCHEMA_ERROR that mentions `message` among its lines. */
export function expectSchemaErrorIncluding(res: TestResponse, message: string): void {
  expectKnownError(res, "SCHEMA_ERROR", 400);
  const lines = String(res.body.error)
    .split("\n")
    .slice(1)
    .map((l) => l.replace(/^ {2}- /, ""));
  expect(lines, res.text).toContain(message);
}

/** Asserts a plain-text (non-coded) error with this status. */
export function expectPlainError(res: TestResponse, status: number, matcher?: RegExp): void {
  expect(res.status, res.text).toBe(status);
  expect(res.headers.get("content-type")).toMatch(/^text\/plain/);
  expect(res.headers.get("x-stack-known-error")).toBeNull();
  expect(res.text.length).toBeGreaterThan(0);
  if (matcher) expect(res.text).toMatch(matcher);
}

/** PATCH /internal/projects/current as the project's owner. */
export async function patchProjectConfig(server: TestServer, project: Pick<Project, "ownerAdmin">, config: Record<string, unknown>) {
  const res = await server.request("/internal/projects/current", { method: "PATCH", as: project.ownerAdmin, body: { config } });
  expect(res.status, res.text).toBe(200);
  return res.body;
}

/** Turns production mode on (localhost off first, as production mode asks). */
export async function turnOnProductionMode(server: TestServer, project: Pick<Project, "ownerAdmin">) {
  const res = await server.request("/internal/projects/current", {
    method: "PATCH",
    as: project.ownerAdmin,
    body: { is_production_mode: true, config: { allow_localhost: false } },
  });
  expect(res.status, res.text).toBe(200);
}

/** Signs in with e-mail and password; returns the raw response. */
export function passwordSignIn(server: TestServer, project: Pick<Project, "client">, email: string, password = PASSWORD) {
  return server.request("/auth/password/sign-in", { method: "POST", as: project.client, body: { email, password } });
}

/** POST /auth/sessions/current/refresh with this refresh token. */
export function refreshWith(server: TestServer, project: Pick<Project, "client">, refreshToken: string) {
  return server.request("/auth/sessions/current/refresh", {
    method: "POST",
    as: project.client,
    headers: { "x-stack-refresh-token": refreshToken },
  });
}

/** A further password sign-in of `user`: a second session, its tokens, client auth and id. */
export async function signInAgain(server: TestServer, project: Pick<Project, "client">, user: Pick<EndUser, "email">, password = PASSWORD) {
  const res = await passwordSignIn(server, project, user.email, password);
  expect(res.status, res.text).toBe(200);
  const accessToken = res.body.access_token as string;
  return {
    accessToken,
    refreshToken: res.body.refresh_token as string,
    as: { ...project.client, accessToken } as Auth,
    sessionId: sessionIdOf(accessToken),
  };
}

/** A refresh at the OAuth token endpoint (form data, the project's client credentials). */
export function tokenEndpointRefresh(server: TestServer, project: Pick<Project, "id" | "client">, refreshToken: string) {
  return server.request("/auth/oauth/token", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "refresh_token",
      refresh_token: refreshToken,
      client_id: project.id,
      client_secret: project.client.publishableClientKey!,
    }).toString(),
  });
}
