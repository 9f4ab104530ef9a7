/**
 * Tenant isolation: project A's users, keys and owner get nothing from
 * project B, on every endpoint, and B's data is unchanged afterwards.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createProject,
  PASSWORD,
  passwordSignIn,
  refreshWith,
  sessionIdOf,
  signUpUser,
  uniqueEmail,
  type EndUser,
  type Project,
} from "./fixtures.ts";
import { createTestServer, expectKnownError, type Auth, type TestServer } from "./harness.ts";
import { CALLBACK_URL } from "./mail-fixtures.ts";

const MARKETING = "4f6f8873-3d04-46bd-8bef-18338b1a1b4c";
const UNKNOWN_CODE = "0".repeat(45);

let server: TestServer;
let A: Project;
let B: Project;
let userA: EndUser;
let userB: EndUser;
let keyIdA: string;
let keyIdB: string;
let channelIdB: string;
let snapshot: Awaited<ReturnType<typeof stateOfB>>;

beforeAll(async () => {
  server = await createTestServer();
  A = await createProject(server);
  B = await createProject(server);
  // The same e-mail in both projects: two separate accounts.
  const email = uniqueEmail("shared");
  userA = await signUpUser(server, A, email);
  userB = await signUpUser(server, B, email);
  expect(userA.userId).not.toBe(userB.userId);
  keyIdA = (await server.request("/internal/api-keys", { as: A.admin })).body.items[0].id;
  keyIdB = (await server.request("/internal/api-keys", { as: B.admin })).body.items[0].id;
  channelIdB = (await server.request("/contact-channels", { as: B.server, query: { user_id: userB.userId } })).body.items[0].id;
  snapshot = await stateOfB();
});
afterAll(() => server.close());

async function stateOfB() {
  const [user, project, keys, users, channels, preferences, emails, themes, drafts] = await Promise.all([
    server.request(`/users/${userB.userId}`, { as: B.server }),
    server.request("/internal/projects/current", { as: B.admin }),
    server.request("/internal/api-keys", { as: B.admin }),
    server.request("/users", { as: B.server, query: { include_anonymous: true } }),
    server.request("/contact-channels", { as: B.server, query: { user_id: userB.userId } }),
    server.request(`/emails/notification-preference/${userB.userId}`, { as: B.server }),
    server.request("/internal/emails", { as: B.admin }),
    server.request("/internal/email-themes", { as: B.admin }),
    server.request("/internal/email-drafts", { as: B.admin }),
  ]);
  for (const res of [user, project, keys, users, channels, preferences, emails, themes, drafts]) expect(res.status, res.text).toBe(200);
  return {
    userB: user.body,
    projectB: project.body,
    keysB: keys.body,
    usersB: users.body,
    channelsB: channels.body,
    preferencesB: preferences.body,
    emailsB: emails.body,
    themesB: themes.body,
    draftsB: drafts.body,
  };
}

type Access = "client" | "server" | "admin";
interface Endpoint {
  method: string;
  path: () => string;
  access: Access;
  body?: () => unknown;
  query?: Record<string, string>;
  headers?: () => Record<string, string>;
}

/** Every endpoint of the suites, aimed at project B's resources. */
const endpoints: Endpoint[] = [
  { method: "GET", path: () => "/projects/current", access: "client" },
  { method: "GET", path: () => "/users/me", access: "client" },
  { method: "PATCH", path: () => "/users/me", access: "client", body: () => ({ display_name: "pwned" }) },
  { method: "DELETE", path: () => "/users/me", access: "client" },
  { method: "GET", path: () => "/users", access: "server" },
  { method: "POST", path: () => "/users", access: "server", body: () => ({ display_name: "intruder" }) },
  { method: "GET", path: () => `/users/${userB.userId}`, access: "server" },
  { method: "PATCH", path: () => `/users/${userB.userId}`, access: "server", body: () => ({ display_name: "pwned" }) },
  { method: "DELETE", path: () => `/users/${userB.userId}`, access: "server" },
  { method: "GET", path: () => "/auth/sessions", access: "client", query: { user_id: "me" } },
  { method: "DELETE", path: () => `/auth/sessions/${sessionIdOf(userB.accessToken)}`, access: "server" },
  { method: "POST", path: () => "/auth/sessions", access: "server", body: () => ({ user_id: userB.userId }) },
  {
    method: "POST",
    path: () => "/auth/sessions/current/refresh",
    access: "client",
    headers: () => ({ "x-stack-refresh-token": userB.refreshToken }),
  },
  {
    method: "DELETE",
    path: () => "/auth/sessions/current",
    access: "client",
    headers: () => ({ "x-stack-refresh-token": userB.refreshToken }),
  },
  { method: "POST", path: () => "/auth/password/sign-up", access: "client", body: () => ({ email: uniqueEmail("x"), password: PASSWORD }) },
  { method: "POST", path: () => "/auth/password/sign-in", access: "client", body: () => ({ email: userB.email, password: PASSWORD }) },
  {
    method: "POST",
    path: () => "/auth/password/update",
    access: "client",
    body: () => ({ old_password: PASSWORD, new_password: "pwned pwned" }),
  },
  { method: "POST", path: () => "/auth/password/set", access: "client", body: () => ({ password: "pwned pwned" }) },
  { method: "POST", path: () => "/auth/anonymous/sign-up", access: "client" },
  { method: "GET", path: () => "/internal/projects/current", access: "admin" },
  { method: "PATCH", path: () => "/internal/projects/current", access: "admin", body: () => ({ display_name: "pwned" }) },
  { method: "DELETE", path: () => "/internal/projects/current", access: "admin" },
  { method: "GET", path: () => "/internal/api-keys", access: "admin" },
  {
    method: "POST",
    path: () => "/internal/api-keys",
    access: "admin",
    body: () => ({
      description: "stolen",
      expires_at_millis: Date.now() + 60_000,
      has_publishable_client_key: true,
      has_secret_server_key: true,
      has_super_secret_admin_key: true,
    }),
  },
  { method: "GET", path: () => `/internal/api-keys/${keyIdB}`, access: "admin" },
  { method: "PATCH", path: () => `/internal/api-keys/${keyIdB}`, access: "admin", body: () => ({ revoked: true }) },
  // Contact channels, codes and mail.
  { method: "GET", path: () => "/contact-channels", access: "client", query: { user_id: "me" } },
  {
    method: "POST",
    path: () => "/contact-channels",
    access: "server",
    body: () => ({ user_id: userB.userId, type: "email", value: uniqueEmail("x"), used_for_auth: false }),
  },
  { method: "GET", path: () => `/contact-channels/${userB.userId}/${channelIdB}`, access: "server" },
  { method: "PATCH", path: () => `/contact-channels/${userB.userId}/${channelIdB}`, access: "server", body: () => ({ is_verified: true }) },
  { method: "DELETE", path: () => `/contact-channels/${userB.userId}/${channelIdB}`, access: "server" },
  {
    method: "POST",
    path: () => `/contact-channels/${userB.userId}/${channelIdB}/send-verification-code`,
    access: "server",
    body: () => ({ callback_url: CALLBACK_URL }),
  },
  {
    method: "POST",
    path: () => "/contact-channels/send-verification-code",
    access: "client",
    body: () => ({ email: userB.email, callback_url: CALLBACK_URL }),
  },
  { method: "POST", path: () => "/contact-channels/verify", access: "client", body: () => ({ code: UNKNOWN_CODE }) },
  {
    method: "POST",
    path: () => "/auth/password/send-reset-code",
    access: "client",
    body: () => ({ email: userB.email, callback_url: CALLBACK_URL }),
  },
  { method: "POST", path: () => "/auth/password/reset/check-code", access: "client", body: () => ({ code: UNKNOWN_CODE }) },
  { method: "POST", path: () => "/auth/password/reset", access: "client", body: () => ({ code: UNKNOWN_CODE, password: "pwned pwned" }) },
  {
    method: "POST",
    path: () => "/auth/otp/send-sign-in-code",
    access: "client",
    body: () => ({ email: userB.email, callback_url: CALLBACK_URL }),
  },
  { method: "POST", path: () => "/auth/otp/sign-in", access: "client", body: () => ({ code: UNKNOWN_CODE }) },
  { method: "GET", path: () => `/emails/notification-preference/${userB.userId}`, access: "server" },
  {
    method: "PATCH",
    path: () => `/emails/notification-preference/${userB.userId}/${MARKETING}`,
    access: "server",
    body: () => ({ enabled: false }),
  },
  {
    method: "POST",
    path: () => "/emails/send-email",
    access: "server",
    body: () => ({ user_ids: [userB.userId], html: "<p>phish</p>", subject: "phish" }),
  },
  { method: "GET", path: () => "/internal/emails", access: "admin" },
  { method: "GET", path: () => "/internal/emails/outbox", access: "admin" },
  { method: "GET", path: () => "/internal/email-themes", access: "admin" },
  { method: "POST", path: () => "/internal/email-themes", access: "admin", body: () => ({ display_name: "stolen" }) },
  { method: "GET", path: () => "/internal/email-templates", access: "admin" },
  { method: "GET", path: () => "/internal/email-drafts", access: "admin" },
  { method: "POST", path: () => "/internal/email-drafts", access: "admin", body: () => ({ display_name: "stolen" }) },
  {
    method: "POST",
    path: () => "/emails/render-email",
    access: "admin",
    body: () => ({ template_tsx_source: "export function EmailTemplate() { return null; }" }),
  },
];

const label = (e: Endpoint) => `${e.method} ${e.path()}`;
const call = (e: Endpoint, as: Auth) =>
  server.request(e.path(), {
    method: e.method,
    as,
    ...(e.body ? { body: e.body() } : {}),
    ...(e.query ? { query: e.query } : {}),
    ...(e.headers ? { headers: e.headers() } : {}),
  });

/** A's key of the endpoint's access type, sent with B's project id. */
function aKeyOnB(access: Access): { as: Auth; code: string } {
  if (access === "client") {
    return {
      as: { type: "client", projectId: B.id, publishableClientKey: A.client.publishableClientKey! },
      code: "INVALID_PUBLISHABLE_CLIENT_KEY",
    };
  }
  if (access === "server") {
    return { as: { type: "server", projectId: B.id, secretServerKey: A.server.secretServerKey! }, code: "INVALID_SECRET_SERVER_KEY" };
  }
  return {
    as: { type: "admin", projectId: B.id, superSecretAdminKey: A.admin.superSecretAdminKey! },
    code: "INVALID_SUPER_SECRET_ADMIN_KEY",
  };
}
const bKey = (access: Access): Auth => ({ client: B.client, server: B.server, admin: B.admin })[access];

describe("every endpoint refuses A's credentials on project B", () => {
  it("A's keys with B's project id → INVALID_*_KEY {project_id: B}", async () => {
    for (const e of endpoints) {
      const { as, code } = aKeyOnB(e.access);
      const res = await call(e, as);
      expectKnownError(res, code, 401);
      expect(res.body.details, label(e)).toEqual({ project_id: B.id });
    }
    // The internal project's seeded keys are no better.
    for (const e of endpoints) {
      const as: Auth =
        e.access === "client"
          ? { ...server.internal.client, projectId: B.id }
          : e.access === "server"
            ? { ...server.internal.server, projectId: B.id }
            : { ...server.internal.admin, projectId: B.id };
      expectKnownError(await call(e, as), aKeyOnB(e.access).code, 401);
    }
  });

  it("A's user token on B (with B's valid keys) → INVALID_PROJECT_FOR_ACCESS_TOKEN", async () => {
    for (const e of endpoints) {
      const res = await call(e, { ...bKey(e.access), accessToken: userA.accessToken });
      expectKnownError(res, "INVALID_PROJECT_FOR_ACCESS_TOKEN", 401);
      expect(res.body.details, label(e)).toEqual({ expected_project_id: B.id, actual_project_id: A.id });
    }
    // An owner's (internal-project) token is no user of B either.
    const res = await call(endpoints[1]!, { ...B.client, accessToken: A.owner.accessToken });
    expectKnownError(res, "INVALID_PROJECT_FOR_ACCESS_TOKEN", 401);
    expect(res.body.details).toEqual({ expected_project_id: B.id, actual_project_id: "internal" });
  });

  it("A's owner admin token on B → ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN, whatever the access type", async () => {
    for (const e of endpoints) {
      for (const type of ["admin", e.access] as const) {
        const res = await call(e, { type, projectId: B.id, adminAccessToken: A.owner.accessToken });
        expectKnownError(res, "ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN", 401);
      }
    }
    // Even next to B's valid admin key: the token decides.
    expectKnownError(
      await server.request("/internal/projects/current", { as: { ...B.admin, adminAccessToken: A.owner.accessToken } }),
      "ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN",
      401,
    );
    // An end user's token is no admin token, not even for its own project.
    expectKnownError(
      await server.request("/internal/projects/current", { as: { type: "admin", projectId: A.id, adminAccessToken: userA.accessToken } }),
      "ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN",
      401,
    );
  });

  it("left B untouched", async () => {
    expect(await stateOfB()).toEqual(snapshot);
    expect((await refreshWith(server, B, userB.refreshToken)).status).toBe(200);
    expect((await passwordSignIn(server, B, userB.email)).status).toBe(200);
  });
});

describe("B's valid credentials reach nothing of A", () => {
  it("users: GET/PATCH/DELETE /users/{A's user} → USER_NOT_FOUND; A's user unchanged", async () => {
    const before = await server.request(`/users/${userA.userId}`, { as: A.server });
    for (const as of [B.server, B.admin]) {
      expectKnownError(await server.request(`/users/${userA.userId}`, { as }), "USER_NOT_FOUND", 404);
      expectKnownError(
        await server.request(`/users/${userA.userId}`, { method: "PATCH", as, body: { display_name: "pwned", server_metadata: { x: 1 } } }),
        "USER_NOT_FOUND",
        404,
      );
      expectKnownError(await server.request(`/users/${userA.userId}`, { method: "DELETE", as }), "USER_NOT_FOUND", 404);
    }
    expect((await server.request(`/users/${userA.userId}`, { as: A.server })).body).toEqual(before.body);
  });

  it("users: B's list never shows A's users", async () => {
    const all = await server.request("/users", { as: B.server, query: { include_anonymous: true } });
    const ids = all.body.items.map((u: { id: string }) => u.id);
    expect(ids).toContain(userB.userId);
    expect(ids).not.toContain(userA.userId);
    const search = await server.request("/users", { as: B.server, query: { query: userA.userId } });
    expect(search.body.items).toEqual([]);
    const byCursor = await server.request("/users", { as: B.server, query: { cursor: userA.userId } });
    expect(byCursor.status, byCursor.text).toBe(200);
    expect(byCursor.body.items.map((u: { id: string }) => u.id)).not.toContain(userA.userId);
    const byTeam = await server.request("/users", { as: B.server, query: { team_id: A.owner.teamId } });
    expect(byTeam.body.items).toEqual([]);
  });

  it("sessions: B cannot list, create or delete A's sessions", async () => {
    const list = await server.request("/auth/sessions", { as: B.server, query: { user_id: userA.userId } });
    if (list.status === 200) expect(list.body.items).toEqual([]);
    else expect(list.status).toBeGreaterThanOrEqual(400);
    expectKnownError(
      await server.request("/auth/sessions", { method: "POST", as: B.server, body: { user_id: userA.userId } }),
      "USER_ID_DOES_NOT_EXIST",
      400,
    );
    const sessionA = sessionIdOf(userA.accessToken);
    for (const as of [B.server, B.admin, userB.as]) {
      const res = await server.request(`/auth/sessions/${sessionA}`, { method: "DELETE", as });
      expect(res.status, res.text).toBe(404);
    }
    // Sign-out on B with A's refresh token does nothing to A.
    expectKnownError(
      await server.request("/auth/sessions/current", {
        method: "DELETE",
        as: B.client,
        headers: { "x-stack-refresh-token": userA.refreshToken },
      }),
      "REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED",
      401,
    );
    expect((await refreshWith(server, A, userA.refreshToken)).status).toBe(200);
    const own = await server.request("/auth/sessions", { as: userA.as, query: { user_id: "me" } });
    expect(own.body.items.map((s: { id: string }) => s.id)).toContain(sessionA);
  });

  it("refresh: A's refresh token fails on B's refresh and token endpoints", async () => {
    expectKnownError(await refreshWith(server, B, userA.refreshToken), "REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED", 401);
    const token = (clientId: string, secret: string) =>
      server.request("/auth/oauth/token", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          grant_type: "refresh_token",
          refresh_token: userA.refreshToken,
          client_id: clientId,
          client_secret: secret,
        }).toString(),
      });
    expectKnownError(await token(B.id, B.client.publishableClientKey!), "REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED", 401);
    expectKnownError(await token(B.id, "__stack_public_client__"), "REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED", 401);
    expectKnownError(await token(B.id, A.client.publishableClientKey!), "INVALID_OAUTH_CLIENT_ID_OR_SECRET", 400);
    // It still works where it belongs.
    const ok = await token(A.id, A.client.publishableClientKey!);
    expect(ok.status, ok.text).toBe(200);
  });

  it("passwords: A's credentials do not sign in to B's account with the same e-mail", async () => {
    // Change A's password; B's account keeps its own.
    const upd = await server.request("/auth/password/update", {
      method: "POST",
      as: userA.as,
      body: { old_password: PASSWORD, new_password: "only for project A" },
    });
    expect(upd.status, upd.text).toBe(200);
    expectKnownError(await passwordSignIn(server, B, userA.email, "only for project A"), "EMAIL_PASSWORD_MISMATCH", 400);
    const b = await passwordSignIn(server, B, userB.email, PASSWORD);
    expect(b.body.user_id).toBe(userB.userId);
    const a = await passwordSignIn(server, A, userA.email, "only for project A");
    expect(a.body.user_id).toBe(userA.userId);
  });

  it("API keys: B cannot see or revoke A's keys", async () => {
    const list = await server.request("/internal/api-keys", { as: B.admin });
    expect(list.body.items.map((k: { id: string }) => k.id)).not.toContain(keyIdA);
    expectKnownError(await server.request(`/internal/api-keys/${keyIdA}`, { as: B.admin }), "API_KEY_NOT_FOUND", 404);
    expectKnownError(
      await server.request(`/internal/api-keys/${keyIdA}`, { method: "PATCH", as: B.ownerAdmin, body: { revoked: true } }),
      "API_KEY_NOT_FOUND",
      404,
    );
    const one = await server.request(`/internal/api-keys/${keyIdA}`, { as: A.admin });
    expect(one.body).not.toHaveProperty("manually_revoked_at_millis");
    expect((await server.request("/projects/current", { as: A.server })).status).toBe(200);
  });

  it("projects: owners list only their own projects and cannot transfer others'", async () => {
    const listA = await server.request("/internal/projects", { as: { ...server.internal.client, accessToken: A.owner.accessToken } });
    expect(listA.body.items.map((p: { id: string }) => p.id)).toEqual([A.id]);
    const listB = await server.request("/internal/projects", { as: { ...server.internal.client, accessToken: B.owner.accessToken } });
    expect(listB.body.items.map((p: { id: string }) => p.id)).toEqual([B.id]);
    expectKnownError(
      await server.request("/internal/projects/transfer", {
        method: "POST",
        as: { ...server.internal.client, accessToken: A.owner.accessToken },
        body: { project_id: B.id, new_team_id: A.owner.teamId },
      }),
      "TEAM_MEMBERSHIP_NOT_FOUND",
      404,
    );
    expectKnownError(
      await server.request("/internal/projects", {
        method: "POST",
        as: { ...server.internal.client, accessToken: A.owner.accessToken },
        body: { display_name: "in B's team", owner_team_id: B.owner.teamId },
      }),
      "TEAM_MEMBERSHIP_NOT_FOUND",
      404,
    );
    expect((await server.request("/internal/projects/current", { as: B.ownerAdmin })).body.owner_team_id).toBe(B.owner.teamId);
  });

  it("A's end users are not owners: their token is refused on the internal project", async () => {
    expectKnownError(
      await server.request("/internal/projects", { as: { ...server.internal.client, accessToken: userA.accessToken } }),
      "INVALID_PROJECT_FOR_ACCESS_TOKEN",
      401,
    );
  });

  it("deleting A leaves B working", async () => {
    const gone = await createProject(server, A.owner);
    const user = await signUpUser(server, gone);
    expect((await server.request("/internal/projects/current", { method: "DELETE", as: gone.admin })).status).toBe(200);
    expectKnownError(await refreshWith(server, gone, user.refreshToken), "CURRENT_PROJECT_NOT_FOUND", 400);
    expect(await stateOfB()).toEqual(snapshot);
    expect((await server.request("/projects/current", { as: A.client })).status).toBe(200);
  });
});
