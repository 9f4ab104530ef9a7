/**
 * Access and refresh tokens: the JWT header and claims, the JWKS
 * that verifies them, refresh-token storage, and the OAuth token endpoint.
 */
import { createHmac, sign } from "node:crypto";
import { createLocalJWKSet, decodeJwt, decodeProtectedHeader, jwtVerify, type JSONWebKeySet } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createProject, signUpUser, type EndUser, type Project } from "./fixtures.ts";
import { createTestServer, expectKnownError, type TestResponse, type TestServer } from "./harness.ts";
import { writeOverride } from "./config-fixtures.ts";

let server: TestServer;
/** An instance whose access tokens live two minutes. */
let server120: TestServer;
let project: Project;
let user: EndUser;
let anonymous: { accessToken: string; refreshToken: string; userId: string };

const CLAIM_KEYS = [
  "sub",
  "iat",
  "exp",
  "iss",
  "aud",
  "project_id",
  "branch_id",
  "refresh_token_id",
  "role",
  "name",
  "email",
  "email_verified",
  "selected_team_id",
  "signed_up_at",
  "is_anonymous",
  "is_restricted",
  "restricted_reason",
  "requires_totp_mfa",
].sort();

beforeAll(async () => {
  [server, server120] = await Promise.all([createTestServer(), createTestServer({ accessTokenExpirationMillis: 120_000 })]);
  project = await createProject(server);
  user = await signUpUser(server, project);
  const anon = await server.request("/auth/anonymous/sign-up", { method: "POST", as: project.client });
  expect(anon.status, anon.text).toBe(200);
  anonymous = { accessToken: anon.body.access_token, refreshToken: anon.body.refresh_token, userId: anon.body.user_id };
});
afterAll(async () => {
  await Promise.all([server?.close(), server120?.close()]);
});

const issuer = (kind: "projects" | "projects-anonymous-users" | "projects-restricted-users", id: string) =>
  `http://localhost:8102/api/v1/${kind}/${id}`;

async function jwks(projectId: string, query: Record<string, string> = {}): Promise<TestResponse> {
  return server.request(`/projects/${projectId}/.well-known/jwks.json`, { query });
}

describe("access token", () => {
  it("header: ES256 with a 12-character kid, nothing else", () => {
    const header = decodeProtectedHeader(user.accessToken);
    expect(Object.keys(header).sort()).toEqual(["alg", "kid"]);
    expect(header.alg).toBe("ES256");
    expect(header.kid).toMatch(/^[A-Za-z0-9_-]{12}$/);
  });

  it("claims: exactly the access token's claims, with the regular issuer and audience", async () => {
    const claims = decodeJwt(user.accessToken);
    expect(Object.keys(claims).sort()).toEqual(CLAIM_KEYS);
    const me = await server.request("/users/me", { as: user.as });
    expect(claims).toEqual({
      sub: user.userId,
      iat: expect.any(Number),
      exp: expect.any(Number),
      iss: issuer("projects", project.id),
      aud: project.id,
      project_id: project.id,
      branch_id: "main",
      refresh_token_id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/),
      role: "authenticated",
      name: null,
      email: user.email,
      email_verified: false,
      selected_team_id: null,
      signed_up_at: Math.floor(me.body.signed_up_at_millis / 1000),
      is_anonymous: false,
      is_restricted: false,
      restricted_reason: null,
      requires_totp_mfa: false,
    });
    expect(Math.abs((claims.iat as number) - Date.now() / 1000)).toBeLessThan(60);
  });

  it("claims follow the user (display name, selected team on the internal project)", async () => {
    const owner = await signUpUser(server, { client: server.internal.client });
    const patched = await server.request("/users/me", { method: "PATCH", as: owner.as, body: { display_name: "Ada" } });
    expect(patched.status, patched.text).toBe(200);
    const refreshed = await server.request("/auth/sessions/current/refresh", {
      method: "POST",
      as: server.internal.client,
      headers: { "x-stack-refresh-token": owner.refreshToken },
    });
    const claims = decodeJwt(refreshed.body.access_token);
    expect(Object.keys(claims).sort()).toEqual(CLAIM_KEYS);
    expect(claims.name).toBe("Ada");
    expect(claims.selected_team_id).toBe(patched.body.selected_team_id);
    expect(claims.selected_team_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(claims.iss).toBe(issuer("projects", "internal"));
    expect(claims.aud).toBe("internal");
    expect(claims.refresh_token_id).toBe(decodeJwt(owner.accessToken).refresh_token_id);
  });

  it("anonymous users: projects-anonymous-users issuer, <id>:anon audience", () => {
    const claims = decodeJwt(anonymous.accessToken);
    expect(Object.keys(claims).sort()).toEqual(CLAIM_KEYS);
    expect(claims.iss).toBe(issuer("projects-anonymous-users", project.id));
    expect(claims.aud).toBe(`${project.id}:anon`);
    expect(claims.sub).toBe(anonymous.userId);
    expect(claims.is_anonymous).toBe(true);
    expect(claims.is_restricted).toBe(true);
    expect(claims.restricted_reason).toEqual({ type: "anonymous" });
    expect(claims.email).toBeNull();
  });

  it("restricted users: projects-restricted-users issuer, <id>:restricted audience", async () => {
    const restrictedProject = await createProject(server, project.owner, { require_email_verification: true });
    const restricted = await signUpUser(server, restrictedProject);
    const claims = decodeJwt(restricted.accessToken);
    expect(Object.keys(claims).sort()).toEqual(CLAIM_KEYS);
    expect(claims.iss).toBe(issuer("projects-restricted-users", restrictedProject.id));
    expect(claims.aud).toBe(`${restrictedProject.id}:restricted`);
    expect(claims.is_anonymous).toBe(false);
    expect(claims.is_restricted).toBe(true);
    expect(claims.restricted_reason).toEqual({ type: "email_not_verified" });

    const regular = jwtVerifyWith(await jwks(restrictedProject.id), restricted.accessToken);
    await expect(regular).rejects.toThrow();
    const withRestricted = await jwks(restrictedProject.id, { include_restricted: "true" });
    expect(withRestricted.body.keys).toHaveLength(4);
    const { payload } = await jwtVerifyWith(withRestricted, restricted.accessToken, {
      issuer: issuer("projects-restricted-users", restrictedProject.id),
      audience: `${restrictedProject.id}:restricted`,
    });
    expect(payload.sub).toBe(restricted.userId);
    // Restricted keys do not include the anonymous ones.
    await expect(jwtVerifyWith(withRestricted, anonymous.accessToken)).rejects.toThrow();
  });

  it("lifetime follows accessTokenExpirationMillis (default 10 minutes)", async () => {
    const claims = decodeJwt(user.accessToken);
    expect((claims.exp as number) - (claims.iat as number)).toBe(600);

    const signUp = await server120.request("/auth/password/sign-up", {
      method: "POST",
      as: server120.internal.client,
      body: { email: `lifetime-${Date.now()}@example.com`, password: "correct horse battery staple" },
    });
    expect(signUp.status, signUp.text).toBe(200);
    const short = decodeJwt(signUp.body.access_token);
    expect((short.exp as number) - (short.iat as number)).toBe(120);
    const refreshed = await server120.request("/auth/sessions/current/refresh", {
      method: "POST",
      as: server120.internal.client,
      headers: { "x-stack-refresh-token": signUp.body.refresh_token },
    });
    const again = decodeJwt(refreshed.body.access_token);
    expect((again.exp as number) - (again.iat as number)).toBe(120);
  });
});

function jwtVerifyWith(
  set: TestResponse,
  token: string,
  options: { issuer?: string; audience?: string } = {},
): ReturnType<typeof jwtVerify> {
  return jwtVerify(token, createLocalJWKSet(set.body as JSONWebKeySet), { algorithms: ["ES256"], ...options });
}

describe("JWKS", () => {
  it("two ES256 P-256 keys, publicly cacheable for an hour", async () => {
    const res = await jwks(project.id);
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get("cache-control")).toBe("public, max-age=3600");
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(Object.keys(res.body)).toEqual(["keys"]);
    expect(res.body.keys).toHaveLength(2);
    for (const key of res.body.keys) {
      expect(Object.keys(key).sort()).toEqual(["alg", "crv", "kid", "kty", "x", "y"]);
      expect(key).toMatchObject({ alg: "ES256", crv: "P-256", kty: "EC" });
      expect(key.kid).toMatch(/^[A-Za-z0-9_-]{12}$/);
      expect(key).not.toHaveProperty("d");
    }
    expect(new Set(res.body.keys.map((k: { kid: string }) => k.kid)).size).toBe(2);
    expect(res.body.keys.map((k: { kid: string }) => k.kid)).toContain(decodeProtectedHeader(user.accessToken).kid);
  });

  it("verifies the project's access tokens (signature, issuer, audience)", async () => {
    const set = await jwks(project.id);
    const { payload, protectedHeader } = await jwtVerifyWith(set, user.accessToken, {
      issuer: issuer("projects", project.id),
      audience: project.id,
    });
    expect(payload.sub).toBe(user.userId);
    expect(protectedHeader.alg).toBe("ES256");
    const refreshed = await server.request("/auth/sessions/current/refresh", {
      method: "POST",
      as: project.client,
      headers: { "x-stack-refresh-token": user.refreshToken },
    });
    await jwtVerifyWith(set, refreshed.body.access_token, { issuer: issuer("projects", project.id), audience: project.id });
  });

  it("include_anonymous adds the keys of anonymous (and restricted) tokens; the default set does not verify them", async () => {
    const plain = await jwks(project.id);
    await expect(jwtVerifyWith(plain, anonymous.accessToken)).rejects.toThrow();
    const explicitFalse = await jwks(project.id, { include_anonymous: "false" });
    expect(explicitFalse.body.keys).toEqual(plain.body.keys);

    const withAnon = await jwks(project.id, { include_anonymous: "true" });
    expect(withAnon.status).toBe(200);
    expect(withAnon.headers.get("cache-control")).toBe("public, max-age=3600");
    expect(withAnon.body.keys).toHaveLength(6);
    expect(withAnon.body.keys).toEqual(expect.arrayContaining(plain.body.keys));
    const { payload } = await jwtVerifyWith(withAnon, anonymous.accessToken, {
      issuer: issuer("projects-anonymous-users", project.id),
      audience: `${project.id}:anon`,
    });
    expect(payload.sub).toBe(anonymous.userId);
    // …and still the regular ones.
    await jwtVerifyWith(withAnon, user.accessToken, { audience: project.id });
  });

  it("/projects-anonymous-users/<id>/.well-known/jwks.json (the anonymous issuer) redirects to the set with include_anonymous", async () => {
    const issued = decodeJwt(anonymous.accessToken).iss as string;
    const path = `${new URL(issued).pathname}/.well-known/jwks.json`;
    expect(path).toBe(`/api/v1/projects-anonymous-users/${project.id}/.well-known/jwks.json`);
    const res = await server.instance.app.request(`http://localhost${path}`);
    expect(res.status).toBe(307);
    const location = new URL(res.headers.get("location")!, "http://localhost");
    expect(location.pathname).toBe(`/api/v1/projects/${project.id}/.well-known/jwks.json`);
    expect(location.searchParams.get("include_anonymous")).toBe("true");
    const followed = await server.instance.app.request(location.toString());
    const set = { body: await followed.json() } as TestResponse;
    const { payload } = await jwtVerifyWith(set, anonymous.accessToken, { issuer: issued, audience: `${project.id}:anon` });
    expect(payload.sub).toBe(anonymous.userId);
  });

  it("unknown project → 404 plain text", async () => {
    const res = await jwks("6f1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d");
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(res.headers.get("x-stack-known-error")).toBeNull();
  });
});

describe("refresh tokens", () => {
  it("are 45 characters", () => {
    for (const token of [user.refreshToken, anonymous.refreshToken]) {
      expect(token).toHaveLength(45);
      expect(token).toMatch(/^[0-9a-z]{45}$/);
    }
  });

  it("are stored only as a digest: the token text appears nowhere in the database", async () => {
    const fresh = await signUpUser(server, project);
    const dump = await server.instance.services.database.rawTransaction(async (run) => {
      const sessions = await run("SELECT * FROM sessions");
      const tables = await run(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'",
      );
      const all: unknown[] = [];
      for (const { table_name } of tables) all.push(await run(`SELECT * FROM "${String(table_name)}"`));
      return { sessions, all };
    });
    expect(dump.sessions.length).toBeGreaterThan(2);
    const text = JSON.stringify(dump.all, (_k, v) => (typeof v === "bigint" ? String(v) : v));
    for (const token of [fresh.refreshToken, user.refreshToken, anonymous.refreshToken]) {
      expect(JSON.stringify(dump.sessions)).not.toContain(token);
      expect(text).not.toContain(token);
      expect(text.toLowerCase()).not.toContain(token.toLowerCase());
    }
    // The session row is there, keyed by the token's refresh_token_id.
    const sessionId = decodeJwt(fresh.accessToken).refresh_token_id;
    expect(dump.sessions.some((row) => row.id === sessionId)).toBe(true);
  });

  it("two concurrent refreshes of one token both succeed", async () => {
    const fresh = await signUpUser(server, project);
    const viaHeader = () =>
      server.request("/auth/sessions/current/refresh", {
        method: "POST",
        as: project.client,
        headers: { "x-stack-refresh-token": fresh.refreshToken },
      });
    const viaOAuth = () =>
      tokenEndpoint({
        grant_type: "refresh_token",
        refresh_token: fresh.refreshToken,
        client_id: project.id,
        client_secret: project.client.publishableClientKey!,
      });
    const results = await Promise.all([viaHeader(), viaHeader(), viaOAuth(), viaOAuth()]);
    for (const res of results) {
      expect(res.status, res.text).toBe(200);
      const claims = decodeJwt(res.body.access_token);
      expect(claims.sub).toBe(fresh.userId);
      expect(claims.refresh_token_id).toBe(decodeJwt(fresh.accessToken).refresh_token_id);
    }
    const again = await viaHeader();
    expect(again.status, again.text).toBe(200);
  });
});

describe("issuing within one second", () => {
  const subject = {
    userId: "3f1d2c4b-0000-4000-8000-000000000001",
    projectId: "p",
    branchId: "main",
    sessionId: "s1",
    displayName: null,
    primaryEmail: "a@example.com",
    primaryEmailVerified: false,
    selectedTeamId: null,
    signedUpAt: new Date("2026-01-01T00:00:00Z"),
    isAnonymous: false,
    restrictedReason: null,
    requiresTotpMfa: false,
  };

  it("hands out the same token for the same claims, and a new one when the claims or the second change", async () => {
    const tokens = server.instance.services.tokens;
    const clock = server.clock;
    // A tenth into the next whole second, held still; then moved within that second, and on to the next.
    const second = Math.ceil(clock.now() / 1000) * 1000 + 1000;
    try {
      clock.freeze(second + 100);
      const first = await tokens.issue(subject);
      clock.advance(800);
      // Same second, same claims: the very same token (ECDSA signatures are randomized, so a re-sign would differ).
      expect(await tokens.issue(subject)).toBe(first);
      const renamed = await tokens.issue({ ...subject, displayName: "Ada" });
      expect(renamed).not.toBe(first);
      expect(decodeJwt(renamed).name).toBe("Ada");
      expect(await tokens.issue({ ...subject, sessionId: "s2" })).not.toBe(first);

      // Equal values in new objects are the same claims; any changed field, a restriction included, is not.
      const back = await tokens.issue({ ...subject, signedUpAt: new Date(subject.signedUpAt.getTime()) });
      expect(decodeJwt(back).name).toBeNull();
      expect(await tokens.issue({ ...subject, signedUpAt: new Date(subject.signedUpAt.getTime()) })).toBe(back);
      const restricted = await tokens.issue({ ...subject, restrictedReason: { type: "email_not_verified" } });
      expect(decodeJwt(restricted).restricted_reason).toEqual({ type: "email_not_verified" });
      expect(decodeJwt(restricted).is_restricted).toBe(true);
      // A subject changed after it was issued for is not mistaken for the one signed.
      const mutable = { ...subject, sessionId: "s3" };
      const before = await tokens.issue(mutable);
      mutable.primaryEmail = "b@example.com";
      const after = await tokens.issue(mutable);
      expect(after).not.toBe(before);
      expect(decodeJwt(after).email).toBe("b@example.com");

      clock.advance(100);
      const next = await tokens.issue(subject);
      expect(next).not.toBe(first);
      expect(decodeJwt(next).iat).toBe(decodeJwt(first).iat! + 1);
    } finally {
      clock.resume();
    }
  });
});

/** POST /auth/oauth/token, form-encoded unless `json` is set. */
function tokenEndpoint(fields: Record<string, string>, options: { json?: boolean; headers?: Record<string, string> } = {}) {
  return server.request("/auth/oauth/token", {
    method: "POST",
    headers: {
      "content-type": options.json ? "application/json" : "application/x-www-form-urlencoded",
      ...options.headers,
    },
    body: options.json ? JSON.stringify(fields) : new URLSearchParams(fields).toString(),
  });
}

describe("POST /auth/oauth/token", () => {
  const refreshGrant = (extra: Record<string, string> = {}) => ({
    grant_type: "refresh_token",
    refresh_token: user.refreshToken,
    client_id: project.id,
    client_secret: project.client.publishableClientKey!,
    ...extra,
  });

  function expectTokenResponse(res: TestResponse) {
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(res.body).toMatchObject({ token_type: "Bearer", scope: "legacy", expires_in: 600 });
    expect(res.body).not.toHaveProperty("refresh_token");
    const claims = decodeJwt(res.body.access_token);
    expect(claims.sub).toBe(user.userId);
    expect(claims.aud).toBe(project.id);
    expect(Object.keys(claims).sort()).toEqual(CLAIM_KEYS);
  }

  it("refresh grant, form-encoded, client secret = publishable key", async () => {
    const res = await tokenEndpoint(refreshGrant());
    expectTokenResponse(res);
    expect(res.headers.get("x-stack-request-id")).toBeTruthy();
  });

  it("refresh grant with JSON", async () => {
    expectTokenResponse(await tokenEndpoint(refreshGrant(), { json: true }));
  });

  it("client credentials as HTTP Basic", async () => {
    const { client_id, client_secret, ...rest } = refreshGrant();
    const basic = Buffer.from(`${client_id}:${client_secret}`).toString("base64");
    expectTokenResponse(await tokenEndpoint(rest, { headers: { authorization: `Basic ${basic}` } }));
    const wrong = Buffer.from(`${client_id}:pck_wrong`).toString("base64");
    const res = await tokenEndpoint(rest, { headers: { authorization: `Basic ${wrong}` } });
    expectKnownError(res, "INVALID_OAUTH_CLIENT_ID_OR_SECRET", 400);
    expect(res.body.details).toEqual({ client_id: project.id });
  });

  it("`__stack_public_client__` when the project does not require a publishable key", async () => {
    expectTokenResponse(await tokenEndpoint(refreshGrant({ client_secret: "__stack_public_client__" })));
  });

  it("`__stack_public_client__` when the project requires a publishable key → PUBLISHABLE_CLIENT_KEY_REQUIRED_FOR_PROJECT", async () => {
    const strict = await createProject(server, project.owner);
    const strictUser = await signUpUser(server, strict);
    await writeOverride(server, strict.id, "project", { "project.requirePublishableClientKey": true });
    const res = await tokenEndpoint({
      grant_type: "refresh_token",
      refresh_token: strictUser.refreshToken,
      client_id: strict.id,
      client_secret: "__stack_public_client__",
    });
    expectKnownError(res, "PUBLISHABLE_CLIENT_KEY_REQUIRED_FOR_PROJECT", 401);
    expect(res.body.details).toEqual({ project_id: strict.id });
    const withKey = await tokenEndpoint({
      grant_type: "refresh_token",
      refresh_token: strictUser.refreshToken,
      client_id: strict.id,
      client_secret: strict.client.publishableClientKey!,
    });
    expect(withKey.status, withKey.text).toBe(200);
  });

  it("wrong secret, another project's key, or unknown client id → INVALID_OAUTH_CLIENT_ID_OR_SECRET", async () => {
    const other = await createProject(server, project.owner);
    for (const extra of [
      { client_secret: "pck_not_a_real_key" },
      { client_secret: other.client.publishableClientKey! },
      { client_secret: project.server.secretServerKey! },
    ]) {
      const res = await tokenEndpoint(refreshGrant(extra));
      expectKnownError(res, "INVALID_OAUTH_CLIENT_ID_OR_SECRET", 400);
      expect(Object.keys(res.body)).toEqual(["code", "details", "error"]);
      expect(res.body.details).toEqual({ client_id: project.id });
    }
    const unknown = await tokenEndpoint(refreshGrant({ client_id: "6f1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d" }));
    expectKnownError(unknown, "INVALID_OAUTH_CLIENT_ID_OR_SECRET", 400);
    expect(unknown.body.details).toEqual({ client_id: "6f1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d" });
  });

  it("a bad refresh token → REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED", async () => {
    const other = await createProject(server, project.owner);
    const otherUser = await signUpUser(server, other);
    for (const refresh_token of ["x".repeat(45), "", otherUser.refreshToken, "a".repeat(1000)]) {
      const res = await tokenEndpoint(refreshGrant({ refresh_token }));
      expectKnownError(res, "REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED", 401);
      expect(Object.keys(res.body)).toEqual(["code", "error"]);
    }
    const { refresh_token: _omit, ...withoutToken } = refreshGrant();
    expectKnownError(await tokenEndpoint(withoutToken), "REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED", 401);
  });

  it("a signed-out session's refresh token no longer works", async () => {
    const fresh = await signUpUser(server, project);
    const out = await server.request("/auth/sessions/current", { method: "DELETE", as: fresh.as });
    expect(out.status, out.text).toBe(200);
    const res = await tokenEndpoint(refreshGrant({ refresh_token: fresh.refreshToken }));
    expectKnownError(res, "REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED", 401);
  });

  it("authorization_code grant with an unknown code → INVALID_AUTHORIZATION_CODE", async () => {
    const res = await tokenEndpoint({
      grant_type: "authorization_code",
      code: "0".repeat(45),
      redirect_uri: "http://localhost:3000/handler/oauth-callback",
      code_verifier: "x".repeat(43),
      client_id: project.id,
      client_secret: project.client.publishableClientKey!,
    });
    expectKnownError(res, "INVALID_AUTHORIZATION_CODE", 400);
    expect(Object.keys(res.body)).toEqual(["code", "error"]);
  });

  it("unknown extra fields are accepted", async () => {
    expectTokenResponse(await tokenEndpoint(refreshGrant({ scope: "openid", foo: "bar", state: "abc" })));
    expectTokenResponse(await tokenEndpoint(refreshGrant({ unexpected_field: "1" }), { json: true }));
  });

  it("client_id may name the branch as <project>#main", async () => {
    expectTokenResponse(await tokenEndpoint(refreshGrant({ client_id: `${project.id}#main` })));
  });

  it("an unknown grant type is a SCHEMA_ERROR", async () => {
    const res = await tokenEndpoint(refreshGrant({ grant_type: "password" }));
    expectKnownError(res, "SCHEMA_ERROR", 400);
    expect(res.body.error).toContain("body.grant_type must be one of the following values: refresh_token, authorization_code");
  });
});

describe("verification rejects crafted tokens", () => {
  const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
  const meWith = (token: string) => server.request("/users/me", { as: { ...project.client, accessToken: token } });

  function signWithServerKey(
    header: Record<string, unknown>,
    payload: Record<string, unknown>,
    dsaEncoding: "ieee-p1363" | "der" = "ieee-p1363",
  ) {
    const { key } = server.instance.services.keys.signingKey("regular");
    const input = `${b64(header)}.${b64(payload)}`;
    return `${input}.${sign("sha256", Buffer.from(input), { key, dsaEncoding }).toString("base64url")}`;
  }

  it("HS256 with the public key as the HMAC secret (algorithm confusion) → UNPARSABLE_ACCESS_TOKEN", async () => {
    const [headerPart, payloadPart] = user.accessToken.split(".") as [string, string];
    const header = JSON.parse(Buffer.from(headerPart, "base64url").toString());
    const jwk = server.instance.services.keys.publicJwks("regular").find((k) => k.kid === header.kid);
    const forgedHeader = b64({ alg: "HS256", kid: header.kid });
    const mac = createHmac("sha256", JSON.stringify(jwk)).update(`${forgedHeader}.${payloadPart}`).digest("base64url");
    expectKnownError(await meWith(`${forgedHeader}.${payloadPart}.${mac}`), "UNPARSABLE_ACCESS_TOKEN", 401);
  });

  it("a valid signature in DER form instead of the JWS form → UNPARSABLE_ACCESS_TOKEN", async () => {
    const claims = decodeJwt(user.accessToken);
    const { kid } = server.instance.services.keys.signingKey("regular");
    expectKnownError(await meWith(signWithServerKey({ alg: "ES256", kid }, claims, "der")), "UNPARSABLE_ACCESS_TOKEN", 401);
  });

  it("correctly signed but without exp → UNPARSABLE_ACCESS_TOKEN", async () => {
    const { exp: _exp, ...claims } = decodeJwt(user.accessToken);
    const { kid } = server.instance.services.keys.signingKey("regular");
    expectKnownError(await meWith(signWithServerKey({ alg: "ES256", kid }, claims)), "UNPARSABLE_ACCESS_TOKEN", 401);
  });

  it("correctly signed with the regular key but claiming the anonymous audience → UNPARSABLE_ACCESS_TOKEN", async () => {
    const claims = { ...decodeJwt(user.accessToken), aud: `${project.id}:anon` };
    const { kid } = server.instance.services.keys.signingKey("regular");
    expectKnownError(await meWith(signWithServerKey({ alg: "ES256", kid }, claims)), "UNPARSABLE_ACCESS_TOKEN", 401);
  });

  it("the same crafted claims signed properly are accepted (the checks above are what reject them)", async () => {
    const claims = decodeJwt(user.accessToken);
    const { kid } = server.instance.services.keys.signingKey("regular");
    const res = await meWith(signWithServerKey({ alg: "ES256", kid }, claims));
    expect(res.status, res.text).toBe(200);
    expect(res.body.id).toBe(user.userId);
  });
});
