/**
 * The authentication order (src/http/auth.ts) and the project-authentication
 * errors: each step's failure, its status, code, header and details, and
 * that when two problems are present the earlier step is the one reported.
 */
import { randomUUID } from "node:crypto";
import { SignJWT, decodeJwt, decodeProtectedHeader, generateKeyPair } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createProject, signUpOwner, signUpUser, type EndUser, type Owner, type Project } from "./fixtures.ts";
import { authHeaders, createTestServer, expectKnownError, type TestResponse, type TestServer } from "./harness.ts";
import { writeOverride } from "./config-fixtures.ts";

let server: TestServer;
/** A second instance (its own keys and secret) whose access tokens live one second. */
let shortServer: TestServer;

let ownerA: Owner;
let projectA: Project;
let projectB: Project;
let userA: EndUser;
let userA2: EndUser;
/** An internal-project user who owns no project of the tests. */
let stranger: EndUser;
let anonymous: { accessToken: string; refreshToken: string; userId: string };
/** Keys of projectA: revoked, and one that expires a minute after setup (the tests move the clock past it). */
let revokedKeys: Record<string, string>;
let expiringKeys: Record<string, string>;
let expiringKeysAt: number;
/** Tokens of shortServer, which live a minute: the tests move shortServer's clock past their expiry. */
let shortUser: { accessToken: string; userId: string };
let shortTokenExpiredAt: number;

const UNKNOWN_PROJECT = "6f1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d";

beforeAll(async () => {
  [server, shortServer] = await Promise.all([createTestServer(), createTestServer({ accessTokenExpirationMillis: 60_000 })]);

  // shortServer: an internal-project user, whose token expires soon.
  const shortSignUp = await shortServer.request("/auth/password/sign-up", {
    method: "POST",
    as: shortServer.internal.client,
    body: { email: `short-${randomUUID()}@example.com`, password: "correct horse battery staple" },
  });
  expect(shortSignUp.status, shortSignUp.text).toBe(200);
  shortUser = { accessToken: shortSignUp.body.access_token, userId: shortSignUp.body.user_id };
  shortTokenExpiredAt = (decodeJwt(shortUser.accessToken).exp as number) * 1000;

  ownerA = await signUpOwner(server);
  [projectA, projectB] = await Promise.all([createProject(server, ownerA), createProject(server)]);
  [userA, userA2, stranger] = await Promise.all([
    signUpUser(server, projectA),
    signUpUser(server, projectA),
    signUpUser(server, { client: server.internal.client }),
  ]);
  const anon = await server.request("/auth/anonymous/sign-up", { method: "POST", as: projectA.client });
  expect(anon.status, anon.text).toBe(200);
  anonymous = { accessToken: anon.body.access_token, refreshToken: anon.body.refresh_token, userId: anon.body.user_id };

  const allKeys = { has_publishable_client_key: true, has_secret_server_key: true, has_super_secret_admin_key: true };
  const revoked = await server.request("/internal/api-keys", {
    method: "POST",
    as: projectA.ownerAdmin,
    body: { description: "to revoke", expires_at_millis: server.clock.now() + 3600_000, ...allKeys },
  });
  expect(revoked.status, revoked.text).toBe(200);
  revokedKeys = revoked.body;
  const revoke = await server.request(`/internal/api-keys/${revoked.body.id}`, {
    method: "PATCH",
    as: projectA.ownerAdmin,
    body: { revoked: true },
  });
  expect(revoke.status, revoke.text).toBe(200);
  expect(revoke.body.manually_revoked_at_millis).toEqual(expect.any(Number));

  expiringKeysAt = server.clock.now() + 60_000;
  const expiring = await server.request("/internal/api-keys", {
    method: "POST",
    as: projectA.ownerAdmin,
    body: { description: "short-lived", expires_at_millis: expiringKeysAt, ...allKeys },
  });
  expect(expiring.status, expiring.text).toBe(200);
  expiringKeys = expiring.body;
});
afterAll(async () => {
  await Promise.all([server?.close(), shortServer?.close()]);
});

/** Moves `s`'s clock to `millis`, unless it is past it already. */
function passTime(s: TestServer, millis: number): void {
  s.clock.advance(Math.max(0, millis - s.clock.now()));
}

/**
 * A coded error in full: status, code (header and body), JSON content type,
 * body keys in the order code, details, error, and the exact details
 * (`null` = the code has no details key).
 */
function expectError(res: TestResponse, code: string, status: number, details: Record<string, unknown> | null): void {
  expectKnownError(res, code, status);
  expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
  const parsed = JSON.parse(res.text) as Record<string, unknown>;
  if (details === null) {
    expect(Object.keys(parsed)).toEqual(["code", "error"]);
  } else {
    expect(Object.keys(parsed)).toEqual(["code", "details", "error"]);
    expect(parsed.details).toEqual(details);
  }
  expect(typeof parsed.error).toBe("string");
  expect((parsed.error as string).length).toBeGreaterThan(10);
}

/** A request with exactly these headers (no helper-added auth). */
function call(path: string, headers: Record<string, string>, options: { method?: string; body?: unknown } = {}) {
  return server.request(path, { headers, ...options });
}

function clientHeaders(project: Project, extra: Record<string, string> = {}) {
  return { ...authHeaders(project.client), ...extra };
}

describe("step 1: key or admin token without x-stack-access-type", () => {
  it.each([
    ["x-stack-publishable-client-key", () => projectA.client.publishableClientKey!],
    ["x-stack-secret-server-key", () => projectA.server.secretServerKey!],
    ["x-stack-super-secret-admin-key", () => projectA.admin.superSecretAdminKey!],
    ["x-stack-admin-access-token", () => ownerA.accessToken],
    ["x-hexclave-secret-server-key", () => projectA.server.secretServerKey!],
  ])("%s alone → PROJECT_KEY_WITHOUT_ACCESS_TYPE", async (header, value) => {
    const res = await call("/users/me", { "x-stack-project-id": projectA.id, [header]: value() });
    expectError(res, "PROJECT_KEY_WITHOUT_ACCESS_TYPE", 400, null);
  });

  it("is reported even for a wrong key and an unknown project", async () => {
    const res = await call("/projects/current", { "x-stack-project-id": UNKNOWN_PROJECT, "x-stack-secret-server-key": "nope" });
    expectError(res, "PROJECT_KEY_WITHOUT_ACCESS_TYPE", 400, null);
  });
});

describe("step 2: no access type", () => {
  it("GET /users/me without any header → ACCESS_TYPE_REQUIRED", async () => {
    const res = await call("/users/me", {});
    expectError(res, "ACCESS_TYPE_REQUIRED", 400, null);
  });

  it("a project id or access token without access type is still unauthenticated", async () => {
    expectError(await call("/users/me", { "x-stack-project-id": projectA.id }), "ACCESS_TYPE_REQUIRED", 400, null);
    expectError(
      await call("/projects/current", { "x-stack-project-id": projectA.id, "x-stack-access-token": userA.accessToken }),
      "ACCESS_TYPE_REQUIRED",
      400,
      null,
    );
  });

  it("a public endpoint answers an unauthenticated request", async () => {
    const res = await call("/", {});
    expect(res.status).toBe(200);
    expect(res.text).toContain("Authentication: None");
  });
});

describe("step 3: access type not client/server/admin", () => {
  it("→ INVALID_ACCESS_TYPE", async () => {
    const res = await call("/projects/current", { "x-stack-access-type": "superuser", "x-stack-project-id": projectA.id });
    expectError(res, "INVALID_ACCESS_TYPE", 400, null);
    expect(res.body.error).toContain("superuser");
  });
});

describe("step 4: no project id", () => {
  it.each(["client", "server", "admin"])("%s without x-stack-project-id → ACCESS_TYPE_WITHOUT_PROJECT_ID", async (type) => {
    const res = await call("/projects/current", { "x-stack-access-type": type });
    expectError(res, "ACCESS_TYPE_WITHOUT_PROJECT_ID", 400, { request_type: type });
  });
});

describe("step 5: the access token", () => {
  it("an expired token → ACCESS_TOKEN_EXPIRED with the session's details", async () => {
    passTime(shortServer, shortTokenExpiredAt + 50);
    const claims = decodeJwt(shortUser.accessToken);
    const res = await shortServer.request("/users/me", {
      as: { ...shortServer.internal.client, accessToken: shortUser.accessToken },
    });
    expectError(res, "ACCESS_TOKEN_EXPIRED", 401, {
      expired_at_millis: shortTokenExpiredAt,
      project_id: "internal",
      user_id: shortUser.userId,
      refresh_token_id: claims.refresh_token_id,
    });
    expect(claims.refresh_token_id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it.each([
    ["garbage", () => "not-a-token"],
    ["three garbage parts", () => "aaa.bbb.ccc"],
    ["the literal text undefined", () => "undefined"],
    ["an empty-looking JWT", () => "e30.e30.e30"],
  ])("%s → UNPARSABLE_ACCESS_TOKEN", async (_name, token) => {
    const res = await call("/users/me", clientHeaders(projectA, { "x-stack-access-token": token() }));
    expectError(res, "UNPARSABLE_ACCESS_TOKEN", 401, null);
  });

  it("a token signed by another server instance → UNPARSABLE_ACCESS_TOKEN", async () => {
    // shortServer has its own signing keys; its internal-project token names the same project.
    const res = await server.request("/users/me", {
      as: { ...server.internal.client, accessToken: shortUser.accessToken },
    });
    expectError(res, "UNPARSABLE_ACCESS_TOKEN", 401, null);
  });

  it("a token signed with another key under this server's kid → UNPARSABLE_ACCESS_TOKEN", async () => {
    const { kid } = decodeProtectedHeader(userA.accessToken);
    const { privateKey } = await generateKeyPair("ES256");
    const forged = await new SignJWT(decodeJwt(userA.accessToken)).setProtectedHeader({ alg: "ES256", kid: kid! }).sign(privateKey);
    const res = await call("/users/me", clientHeaders(projectA, { "x-stack-access-token": forged }));
    expectError(res, "UNPARSABLE_ACCESS_TOKEN", 401, null);
  });

  it("a token whose payload was altered → UNPARSABLE_ACCESS_TOKEN", async () => {
    const [header, payload, signature] = userA.accessToken.split(".");
    const claims = JSON.parse(Buffer.from(payload!, "base64url").toString("utf8"));
    claims.sub = userA2.userId;
    const altered = [header, Buffer.from(JSON.stringify(claims)).toString("base64url"), signature].join(".");
    const res = await call("/users/me", clientHeaders(projectA, { "x-stack-access-token": altered }));
    expectError(res, "UNPARSABLE_ACCESS_TOKEN", 401, null);
  });

  it("an unsigned (alg none) token → UNPARSABLE_ACCESS_TOKEN", async () => {
    const [, payload] = userA.accessToken.split(".");
    const { kid } = decodeProtectedHeader(userA.accessToken);
    const header = Buffer.from(JSON.stringify({ alg: "none", kid })).toString("base64url");
    const res = await call("/users/me", clientHeaders(projectA, { "x-stack-access-token": `${header}.${payload}.` }));
    expectError(res, "UNPARSABLE_ACCESS_TOKEN", 401, null);
  });

  it("another project's token → INVALID_PROJECT_FOR_ACCESS_TOKEN", async () => {
    const res = await call("/users/me", clientHeaders(projectB, { "x-stack-access-token": userA.accessToken }));
    expectError(res, "INVALID_PROJECT_FOR_ACCESS_TOKEN", 401, {
      expected_project_id: projectB.id,
      actual_project_id: projectA.id,
    });
  });

  it("an anonymous user's token needs x-stack-allow-anonymous-user: true", async () => {
    const without = await call("/users/me", clientHeaders(projectA, { "x-stack-access-token": anonymous.accessToken }));
    expectError(without, "ANONYMOUS_AUTHENTICATION_NOT_ALLOWED", 401, null);
    const notTrue = await call(
      "/users/me",
      clientHeaders(projectA, { "x-stack-access-token": anonymous.accessToken, "x-stack-allow-anonymous-user": "false" }),
    );
    expectError(notTrue, "ANONYMOUS_AUTHENTICATION_NOT_ALLOWED", 401, null);
    // Allowing restricted users does not allow anonymous ones.
    const restrictedOnly = await call(
      "/users/me",
      clientHeaders(projectA, { "x-stack-access-token": anonymous.accessToken, "x-stack-allow-restricted-user": "true" }),
    );
    expectError(restrictedOnly, "ANONYMOUS_AUTHENTICATION_NOT_ALLOWED", 401, null);

    const allowed = await call(
      "/users/me",
      clientHeaders(projectA, { "x-stack-access-token": anonymous.accessToken, "x-stack-allow-anonymous-user": "true" }),
    );
    expect(allowed.status, allowed.text).toBe(200);
    expect(allowed.body.id).toBe(anonymous.userId);
    expect(allowed.body.is_anonymous).toBe(true);
  });

  it("a restricted user's token needs an allow header → RESTRICTED_USER_NOT_ALLOWED", async () => {
    const project = await createProject(server, ownerA, { require_email_verification: true });
    const user = await signUpUser(server, project);
    const withToken = (extra: Record<string, string> = {}) =>
      call("/users/me", clientHeaders(project, { "x-stack-access-token": user.accessToken, ...extra }));
    expectError(await withToken(), "RESTRICTED_USER_NOT_ALLOWED", 403, {
      restricted_reason: { type: "email_not_verified" },
    });
    for (const allow of ["x-stack-allow-restricted-user", "x-stack-allow-anonymous-user", "x-hexclave-allow-restricted-user"]) {
      const res = await withToken({ [allow]: "true" });
      expect(res.status, `${allow}: ${res.text}`).toBe(200);
      expect(res.body.is_restricted).toBe(true);
    }
  });

  it("a deleted user's token simply means no user", async () => {
    const user = await signUpUser(server, projectA);
    const deleted = await server.request(`/users/${user.userId}`, { method: "DELETE", as: projectA.server });
    expect(deleted.status, deleted.text).toBe(200);
    const me = await server.request("/users/me", { as: user.as });
    expectError(me, "CANNOT_GET_OWN_USER_WITHOUT_USER", 400, null);
    const root = await server.request("/", { as: user.as });
    expect(root.text).toContain("User: None");
  });
});

describe("step 6: the project", () => {
  it("unknown project → CURRENT_PROJECT_NOT_FOUND", async () => {
    for (const type of ["client", "server", "admin"]) {
      const res = await call("/projects/current", { "x-stack-access-type": type, "x-stack-project-id": UNKNOWN_PROJECT });
      expectError(res, "CURRENT_PROJECT_NOT_FOUND", 400, { project_id: UNKNOWN_PROJECT });
    }
  });

  it("unknown project with an admin token → CURRENT_PROJECT_NOT_FOUND", async () => {
    const res = await call("/projects/current", {
      "x-stack-access-type": "admin",
      "x-stack-project-id": UNKNOWN_PROJECT,
      "x-stack-admin-access-token": "garbage",
    });
    expectError(res, "CURRENT_PROJECT_NOT_FOUND", 400, { project_id: UNKNOWN_PROJECT });
  });
});

describe("step 7a: the admin access token", () => {
  const adminWith = (project: Project, token: string) => ({
    "x-stack-access-type": "admin",
    "x-stack-project-id": project.id,
    "x-stack-admin-access-token": token,
  });

  it("an owner's token grants admin access", async () => {
    const res = await call("/internal/projects/current", adminWith(projectA, ownerA.accessToken));
    expect(res.status, res.text).toBe(200);
    expect(res.body.id).toBe(projectA.id);
  });

  it("an expired token → ADMIN_ACCESS_TOKEN_EXPIRED {expired_at_millis}", async () => {
    passTime(shortServer, shortTokenExpiredAt + 50);
    const res = await shortServer.request("/projects/current", {
      headers: { "x-stack-access-type": "admin", "x-stack-project-id": "internal", "x-stack-admin-access-token": shortUser.accessToken },
    });
    expectError(res, "ADMIN_ACCESS_TOKEN_EXPIRED", 401, { expired_at_millis: shortTokenExpiredAt });
  });

  it.each([["garbage"], ["undefined"], ["aaa.bbb.ccc"]])("%s → UNPARSABLE_ADMIN_ACCESS_TOKEN", async (token) => {
    const res = await call("/internal/projects/current", adminWith(projectA, token));
    expectError(res, "UNPARSABLE_ADMIN_ACCESS_TOKEN", 401, null);
  });

  it("a token of another server instance → UNPARSABLE_ADMIN_ACCESS_TOKEN", async () => {
    const res = await call("/internal/projects/current", adminWith(projectA, shortUser.accessToken));
    expectError(res, "UNPARSABLE_ADMIN_ACCESS_TOKEN", 401, null);
  });

  it("an internal user who does not own the project → ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN", async () => {
    const res = await call("/internal/projects/current", adminWith(projectA, stranger.accessToken));
    expectError(res, "ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN", 401, null);
  });

  it("an end-user token of the project itself or of another project → ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN", async () => {
    expectError(
      await call("/internal/projects/current", adminWith(projectA, userA.accessToken)),
      "ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN",
      401,
      null,
    );
    const userB = await signUpUser(server, projectB);
    expectError(
      await call("/internal/projects/current", adminWith(projectA, userB.accessToken)),
      "ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN",
      401,
      null,
    );
  });

  it("the owner of project A on project B → ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN", async () => {
    const res = await call("/internal/projects/current", adminWith(projectB, ownerA.accessToken));
    expectError(res, "ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN", 401, null);
  });

  it("with an admin token the keys are ignored, whatever the access type", async () => {
    // A wrong admin key next to a good token: the token decides.
    const ok = await call("/internal/projects/current", {
      ...adminWith(projectA, ownerA.accessToken),
      "x-stack-super-secret-admin-key": "sak_wrong",
    });
    expect(ok.status, ok.text).toBe(200);
    // A good admin key next to a bad token: the token decides.
    const bad = await call("/internal/projects/current", {
      ...adminWith(projectA, "garbage"),
      "x-stack-super-secret-admin-key": projectA.admin.superSecretAdminKey!,
    });
    expectError(bad, "UNPARSABLE_ADMIN_ACCESS_TOKEN", 401, null);
    // Server access with an owner's token and no secret key.
    const server_ = await call("/users", {
      "x-stack-access-type": "server",
      "x-stack-project-id": projectA.id,
      "x-stack-admin-access-token": ownerA.accessToken,
    });
    expect(server_.status, server_.text).toBe(200);
    const notOwner = await call("/users", {
      "x-stack-access-type": "server",
      "x-stack-project-id": projectA.id,
      "x-stack-secret-server-key": projectA.server.secretServerKey!,
      "x-stack-admin-access-token": stranger.accessToken,
    });
    expectError(notOwner, "ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN", 401, null);
  });
});

describe("step 7b: project keys", () => {
  const KEY = {
    client: { header: "x-stack-publishable-client-key", field: "publishable_client_key", code: "INVALID_PUBLISHABLE_CLIENT_KEY" },
    server: { header: "x-stack-secret-server-key", field: "secret_server_key", code: "INVALID_SECRET_SERVER_KEY" },
    admin: { header: "x-stack-super-secret-admin-key", field: "super_secret_admin_key", code: "INVALID_SUPER_SECRET_ADMIN_KEY" },
  } as const;
  type Type = keyof typeof KEY;
  const types = Object.keys(KEY) as Type[];
  const withKey = (type: Type, project: Project, key: string) => ({
    "x-stack-access-type": type,
    "x-stack-project-id": project.id,
    [KEY[type].header]: key,
  });
  const goodKey = (type: Type, project: Project) =>
    ({ client: project.client.publishableClientKey, server: project.server.secretServerKey, admin: project.admin.superSecretAdminKey })[
      type
    ]!;

  it.each(types)("%s: the project's own key works", async (type) => {
    const res = await call("/projects/current", withKey(type, projectA, goodKey(type, projectA)));
    expect(res.status, res.text).toBe(200);
    expect(res.body.id).toBe(projectA.id);
  });

  it.each(types)("%s: a wrong key → its INVALID_* code {project_id}", async (type) => {
    const res = await call("/projects/current", withKey(type, projectA, `${KEY[type].field.slice(0, 1)}_wrong_key`));
    expectError(res, KEY[type].code, 401, { project_id: projectA.id });
  });

  it.each(types)("%s: another project's key → its INVALID_* code", async (type) => {
    const res = await call("/projects/current", withKey(type, projectA, goodKey(type, projectB)));
    expectError(res, KEY[type].code, 401, { project_id: projectA.id });
  });

  it.each(types)("%s: a revoked key → its INVALID_* code", async (type) => {
    const res = await call("/projects/current", withKey(type, projectA, revokedKeys[KEY[type].field]!));
    expectError(res, KEY[type].code, 401, { project_id: projectA.id });
  });

  it("an expired key → its INVALID_* code", async () => {
    passTime(server, expiringKeysAt + 50);
    for (const type of types) {
      const res = await call("/projects/current", withKey(type, projectA, expiringKeys[KEY[type].field]!));
      expectError(res, KEY[type].code, 401, { project_id: projectA.id });
    }
  });

  it("a key of another kind → the INVALID_* code of the header it was sent in", async () => {
    const res = await call("/projects/current", withKey("server", projectA, goodKey("client", projectA)));
    expectError(res, "INVALID_SECRET_SERVER_KEY", 401, { project_id: projectA.id });
    const res2 = await call("/projects/current", withKey("admin", projectA, goodKey("server", projectA)));
    expectError(res2, "INVALID_SUPER_SECRET_ADMIN_KEY", 401, { project_id: projectA.id });
  });

  it("client: no key is fine on a new project, a wrong one is not", async () => {
    const res = await call("/projects/current", { "x-stack-access-type": "client", "x-stack-project-id": projectA.id });
    expect(res.status, res.text).toBe(200);
  });

  it("client: no key where the project requires one → PUBLISHABLE_CLIENT_KEY_REQUIRED_FOR_PROJECT", async () => {
    const project = await createProject(server, ownerA);
    await writeOverride(server, project.id, "project", { "project.requirePublishableClientKey": true });
    const res = await call("/projects/current", { "x-stack-access-type": "client", "x-stack-project-id": project.id });
    expectError(res, "PUBLISHABLE_CLIENT_KEY_REQUIRED_FOR_PROJECT", 401, { project_id: project.id });
    const withKey_ = await call("/projects/current", authHeaders(project.client));
    expect(withKey_.status, withKey_.text).toBe(200);
  });

  it("server: no key or an empty key → SERVER_AUTHENTICATION_REQUIRED", async () => {
    const base = { "x-stack-access-type": "server", "x-stack-project-id": projectA.id };
    expectError(await call("/projects/current", base), "SERVER_AUTHENTICATION_REQUIRED", 401, null);
    expectError(await call("/projects/current", { ...base, "x-stack-secret-server-key": "" }), "SERVER_AUTHENTICATION_REQUIRED", 401, null);
    // A publishable key does not make server access.
    expectError(
      await call("/projects/current", { ...base, "x-stack-publishable-client-key": goodKey("client", projectA) }),
      "SERVER_AUTHENTICATION_REQUIRED",
      401,
      null,
    );
  });

  it("admin: no key and no token → ADMIN_AUTHENTICATION_REQUIRED", async () => {
    const base = { "x-stack-access-type": "admin", "x-stack-project-id": projectA.id };
    expectError(await call("/projects/current", base), "ADMIN_AUTHENTICATION_REQUIRED", 401, null);
    expectError(
      await call("/projects/current", { ...base, "x-stack-secret-server-key": goodKey("server", projectA) }),
      "ADMIN_AUTHENTICATION_REQUIRED",
      401,
      null,
    );
  });
});

describe("step 8: the branch", () => {
  it("an unknown branch → BRANCH_DOES_NOT_EXIST {branch_id}", async () => {
    const res = await call("/projects/current", clientHeaders(projectA, { "x-stack-branch-id": "dev" }));
    expectError(res, "BRANCH_DOES_NOT_EXIST", 400, { branch_id: "dev" });
  });

  it("main is the default and may be named", async () => {
    const res = await call("/projects/current", clientHeaders(projectA, { "x-stack-branch-id": "main" }));
    expect(res.status, res.text).toBe(200);
  });
});

describe("step 8b: the token's session", () => {
  /** A user whose session was signed out: its access token has not expired. */
  async function signedOutUser(): Promise<EndUser> {
    const user = await signUpUser(server, projectA);
    const out = await server.request("/auth/sessions/current", { method: "DELETE", as: user.as });
    expect(out.status, out.text).toBe(200);
    return user;
  }

  it("a signed-out session's token → ACCESS_TOKEN_EXPIRED with the session's details, no expiry", async () => {
    const user = await signedOutUser();
    expectError(await server.request("/users/me", { as: user.as }), "ACCESS_TOKEN_EXPIRED", 401, {
      expired_at_millis: null,
      project_id: projectA.id,
      user_id: user.userId,
      refresh_token_id: decodeJwt(user.accessToken).refresh_token_id,
    });
  });

  it("a wrong key (7) and an unknown branch (8) beat it", async () => {
    const user = await signedOutUser();
    const wrongKey = await call("/users/me", { ...withWrongKey("client", projectA.id), "x-stack-access-token": user.accessToken });
    expectError(wrongKey, "INVALID_PUBLISHABLE_CLIENT_KEY", 401, { project_id: projectA.id });
    const branch = await call("/users/me", { ...authHeaders(user.as), "x-stack-branch-id": "dev" });
    expectError(branch, "BRANCH_DOES_NOT_EXIST", 400, { branch_id: "dev" });
  });

  it("it beats the endpoint's access types (9)", async () => {
    const user = await signedOutUser();
    expectKnownError(await server.request("/users", { as: user.as }), "ACCESS_TOKEN_EXPIRED", 401);
  });
});

describe("step 9: the endpoint's access types", () => {
  it("client on GET /users → INSUFFICIENT_ACCESS_TYPE", async () => {
    const res = await server.request("/users", { as: projectA.client });
    expectError(res, "INSUFFICIENT_ACCESS_TYPE", 401, {
      actual_access_type: "client",
      allowed_access_types: ["server", "admin"],
    });
  });

  it("server on an admin endpoint → INSUFFICIENT_ACCESS_TYPE", async () => {
    const res = await server.request("/internal/api-keys", { as: projectA.server });
    expectError(res, "INSUFFICIENT_ACCESS_TYPE", 401, { actual_access_type: "server", allowed_access_types: ["admin"] });
  });

  it("owner endpoints on a project other than internal → EXPECTED_INTERNAL_PROJECT", async () => {
    const res = await server.request("/internal/projects", { as: userA.as });
    expectError(res, "EXPECTED_INTERNAL_PROJECT", 401, null);
  });
});

describe("the earlier step wins", () => {
  it("key without access type (1) beats the endpoint needing auth (2)", async () => {
    const res = await call("/users", { "x-stack-secret-server-key": "x" });
    expectError(res, "PROJECT_KEY_WITHOUT_ACCESS_TYPE", 400, null);
  });

  it("invalid access type (3) beats missing project id (4)", async () => {
    const res = await call("/projects/current", { "x-stack-access-type": "root" });
    expectError(res, "INVALID_ACCESS_TYPE", 400, null);
  });

  it("missing project id (4) beats a bad access token (5)", async () => {
    const res = await call("/users/me", { "x-stack-access-type": "client", "x-stack-access-token": "garbage" });
    expectError(res, "ACCESS_TYPE_WITHOUT_PROJECT_ID", 400, { request_type: "client" });
  });

  it("an expired access token (5) beats an unknown project (6)", async () => {
    passTime(shortServer, shortTokenExpiredAt + 50);
    const res = await shortServer.request("/users/me", {
      headers: {
        "x-stack-access-type": "client",
        "x-stack-project-id": UNKNOWN_PROJECT,
        "x-stack-access-token": shortUser.accessToken,
      },
    });
    expectKnownError(res, "ACCESS_TOKEN_EXPIRED", 401);
    expect(res.body.details.project_id).toBe("internal");
  });

  it("an unparsable access token (5) beats an unknown project (6)", async () => {
    const res = await call("/users/me", {
      "x-stack-access-type": "client",
      "x-stack-project-id": UNKNOWN_PROJECT,
      "x-stack-access-token": "garbage",
    });
    expectError(res, "UNPARSABLE_ACCESS_TOKEN", 401, null);
  });

  it("a token of another project (5) beats an unknown project (6)", async () => {
    const res = await call("/users/me", {
      "x-stack-access-type": "client",
      "x-stack-project-id": UNKNOWN_PROJECT,
      "x-stack-access-token": userA.accessToken,
    });
    expectError(res, "INVALID_PROJECT_FOR_ACCESS_TOKEN", 401, {
      expected_project_id: UNKNOWN_PROJECT,
      actual_project_id: projectA.id,
    });
  });

  it("a bad access token (5) beats a wrong key (7)", async () => {
    const res = await call("/users/me", {
      ...withWrongKey("client", projectA.id),
      "x-stack-access-token": "garbage",
    });
    expectError(res, "UNPARSABLE_ACCESS_TOKEN", 401, null);
  });

  it("an anonymous token without allow header (5) beats a wrong key (7)", async () => {
    const res = await call("/users/me", { ...withWrongKey("client", projectA.id), "x-stack-access-token": anonymous.accessToken });
    expectError(res, "ANONYMOUS_AUTHENTICATION_NOT_ALLOWED", 401, null);
  });

  it("an unknown project (6) beats a wrong key (7)", async () => {
    for (const type of ["client", "server", "admin"] as const) {
      const res = await call("/projects/current", withWrongKey(type, UNKNOWN_PROJECT));
      expectError(res, "CURRENT_PROJECT_NOT_FOUND", 400, { project_id: UNKNOWN_PROJECT });
    }
  });

  it("a wrong key (7) beats an unknown branch (8)", async () => {
    const res = await call("/projects/current", { ...withWrongKey("server", projectA.id), "x-stack-branch-id": "dev" });
    expectError(res, "INVALID_SECRET_SERVER_KEY", 401, { project_id: projectA.id });
  });

  it("a bad admin token (7) beats an unknown branch (8)", async () => {
    const res = await call("/projects/current", {
      "x-stack-access-type": "admin",
      "x-stack-project-id": projectA.id,
      "x-stack-admin-access-token": stranger.accessToken,
      "x-stack-branch-id": "dev",
    });
    expectError(res, "ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN", 401, null);
  });

  it("a wrong key (7) beats an insufficient access type (9)", async () => {
    const res = await call("/users", withWrongKey("client", projectA.id));
    expectError(res, "INVALID_PUBLISHABLE_CLIENT_KEY", 401, { project_id: projectA.id });
  });

  it("an unknown branch (8) beats an insufficient access type (9)", async () => {
    const res = await call("/users", clientHeaders(projectA, { "x-stack-branch-id": "dev" }));
    expectError(res, "BRANCH_DOES_NOT_EXIST", 400, { branch_id: "dev" });
  });

  it("an auth error beats a body SCHEMA_ERROR", async () => {
    const res = await call("/auth/password/sign-up", withWrongKey("client", projectA.id), {
      method: "POST",
      body: { email: "not an email", unknown_field: 1 },
    });
    expectError(res, "INVALID_PUBLISHABLE_CLIENT_KEY", 401, { project_id: projectA.id });
    const noType = await call("/auth/password/sign-up", {}, { method: "POST", body: { email: "not an email" } });
    expectError(noType, "ACCESS_TYPE_REQUIRED", 400, null);
  });

  it("INSUFFICIENT_ACCESS_TYPE beats a body SCHEMA_ERROR", async () => {
    const res = await server.request("/users", { method: "POST", as: projectA.client, body: { unknown_field: 1 } });
    expectError(res, "INSUFFICIENT_ACCESS_TYPE", 401, {
      actual_access_type: "client",
      allowed_access_types: ["server", "admin"],
    });
  });

  it("a missing user (auth.user) beats body errors", async () => {
    const res = await server.request("/auth/password/update", {
      method: "POST",
      as: projectA.client,
      body: { bogus: true },
    });
    expectError(res, "SCHEMA_ERROR", 400, {
      message: "Request validation failed on POST /api/v1/auth/password/update:\n  - auth.user must be defined",
    });
  });

  it("BODY_PARSING_ERROR beats auth errors", async () => {
    const bad = { method: "POST", body: "{not json" };
    const cases: Record<string, string>[] = [
      { "content-type": "application/json", "x-stack-access-type": "bogus" },
      { "content-type": "application/json" },
      { "content-type": "application/json", "x-stack-secret-server-key": "x" },
      { "content-type": "application/json", ...withWrongKey("client", UNKNOWN_PROJECT) },
      { "content-type": "application/json", ...withWrongKey("client", projectA.id) },
    ];
    for (const headers of cases) {
      const res = await call("/auth/password/sign-up", headers, bad);
      expectError(res, "BODY_PARSING_ERROR", 400, null);
    }
  });
});

function withWrongKey(type: "client" | "server" | "admin", projectId: string): Record<string, string> {
  const header = {
    client: "x-stack-publishable-client-key",
    server: "x-stack-secret-server-key",
    admin: "x-stack-super-secret-admin-key",
  }[type];
  return { "x-stack-access-type": type, "x-stack-project-id": projectId, [header]: `${type}-wrong-key` };
}

describe("x-hexclave-* aliases", () => {
  /** Rewrites x-stack-* headers to x-hexclave-*. */
  const hex = (headers: Record<string, string>) =>
    Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.replace(/^x-stack-/, "x-hexclave-"), v]));

  it("access type, project id and each key work under x-hexclave-*", async () => {
    for (const auth of [projectA.client, projectA.server, projectA.admin]) {
      const res = await call("/projects/current", hex(authHeaders(auth)));
      expect(res.status, res.text).toBe(200);
      expect(res.body.id).toBe(projectA.id);
    }
    // A wrong key under the alias is read (and refused).
    const wrong = await call("/projects/current", hex(withWrongKey("server", projectA.id)));
    expectError(wrong, "INVALID_SECRET_SERVER_KEY", 401, { project_id: projectA.id });
    const wrongAdmin = await call("/projects/current", hex(withWrongKey("admin", projectA.id)));
    expectError(wrongAdmin, "INVALID_SUPER_SECRET_ADMIN_KEY", 401, { project_id: projectA.id });
    const noProject = await call("/projects/current", { "x-hexclave-access-type": "server" });
    expectError(noProject, "ACCESS_TYPE_WITHOUT_PROJECT_ID", 400, { request_type: "server" });
    const invalid = await call("/projects/current", { "x-hexclave-access-type": "bogus" });
    expectError(invalid, "INVALID_ACCESS_TYPE", 400, null);
  });

  it("x-hexclave-admin-access-token", async () => {
    const res = await call("/internal/projects/current", hex(authHeaders(projectA.ownerAdmin)));
    expect(res.status, res.text).toBe(200);
    const bad = await call("/internal/projects/current", hex({ ...authHeaders(projectA.ownerAdmin), "x-stack-admin-access-token": "x" }));
    expectError(bad, "UNPARSABLE_ADMIN_ACCESS_TOKEN", 401, null);
  });

  it("x-hexclave-access-token", async () => {
    const res = await call("/users/me", hex(authHeaders(userA.as)));
    expect(res.status, res.text).toBe(200);
    expect(res.body.id).toBe(userA.userId);
    const bad = await call("/users/me", hex({ ...authHeaders(projectA.client), "x-stack-access-token": "garbage" }));
    expectError(bad, "UNPARSABLE_ACCESS_TOKEN", 401, null);
  });

  it("x-hexclave-allow-anonymous-user", async () => {
    const res = await call(
      "/users/me",
      clientHeaders(projectA, { "x-hexclave-access-token": anonymous.accessToken, "x-hexclave-allow-anonymous-user": "true" }),
    );
    expect(res.status, res.text).toBe(200);
    expect(res.body.id).toBe(anonymous.userId);
  });

  it("x-hexclave-refresh-token on /auth/sessions/current/refresh", async () => {
    const res = await call(
      "/auth/sessions/current/refresh",
      hex({ ...authHeaders(projectA.client), "x-stack-refresh-token": userA.refreshToken }),
      {
        method: "POST",
      },
    );
    expect(res.status, res.text).toBe(200);
    expect(decodeJwt(res.body.access_token).sub).toBe(userA.userId);
  });

  it("x-hexclave-branch-id", async () => {
    const res = await call("/projects/current", clientHeaders(projectA, { "x-hexclave-branch-id": "dev" }));
    expectError(res, "BRANCH_DOES_NOT_EXIST", 400, { branch_id: "dev" });
  });

  it("x-stack-* wins when both are given", async () => {
    const type = await call("/projects/current", clientHeaders(projectA, { "x-hexclave-access-type": "bogus" }));
    expect(type.status, type.text).toBe(200);
    const typeReverse = await call("/projects/current", {
      ...hex(authHeaders(projectA.client)),
      "x-stack-access-type": "bogus",
    });
    expectError(typeReverse, "INVALID_ACCESS_TYPE", 400, null);

    const project = await call("/projects/current", clientHeaders(projectA, { "x-hexclave-project-id": projectB.id }));
    expect(project.body.id).toBe(projectA.id);

    const key = await call("/projects/current", {
      ...authHeaders(projectA.server),
      "x-hexclave-secret-server-key": "wrong",
    });
    expect(key.status, key.text).toBe(200);

    const token = await call("/users/me", { ...authHeaders(userA.as), "x-hexclave-access-token": userA2.accessToken });
    expect(token.body.id).toBe(userA.userId);

    const refresh = await call(
      "/auth/sessions/current/refresh",
      clientHeaders(projectA, { "x-stack-refresh-token": userA.refreshToken, "x-hexclave-refresh-token": "wrong" }),
      { method: "POST" },
    );
    expect(refresh.status, refresh.text).toBe(200);
    const refreshReverse = await call(
      "/auth/sessions/current/refresh",
      clientHeaders(projectA, { "x-stack-refresh-token": "wrong", "x-hexclave-refresh-token": userA.refreshToken }),
      { method: "POST" },
    );
    expectError(refreshReverse, "REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED", 401, null);

    const anon = await call(
      "/users/me",
      clientHeaders(projectA, {
        "x-stack-access-token": anonymous.accessToken,
        "x-stack-allow-anonymous-user": "false",
        "x-hexclave-allow-anonymous-user": "true",
      }),
    );
    expectError(anon, "ANONYMOUS_AUTHENTICATION_NOT_ALLOWED", 401, null);

    const branch = await call("/projects/current", clientHeaders(projectA, { "x-stack-branch-id": "main", "x-hexclave-branch-id": "dev" }));
    expect(branch.status, branch.text).toBe(200);
  });
});

describe("restricted project owners", () => {
  it("an owner restricted by an administrator loses admin access at once, even with a token issued before", async () => {
    const project = await createProject(server);
    expect((await call("/internal/projects/current", authHeaders(project.ownerAdmin))).status).toBe(200);
    const restrict = await server.request(`/users/${project.owner.userId}`, {
      method: "PATCH",
      as: server.internal.server,
      body: { restricted_by_admin: true, restricted_by_admin_reason: "test" },
    });
    expect(restrict.status, restrict.text).toBe(200);
    expectError(await call("/internal/projects/current", authHeaders(project.ownerAdmin)), "ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN", 401, null);
    await server.request(`/users/${project.owner.userId}`, {
      method: "PATCH",
      as: server.internal.server,
      body: { restricted_by_admin: false },
    });
    expect((await call("/internal/projects/current", authHeaders(project.ownerAdmin))).status).toBe(200);
  });
});
