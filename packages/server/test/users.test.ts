/**
 * Users: server POST/GET/PATCH/DELETE /users(/{id}) and client /users/me
 * (the user objects of @latchkey/shared api/users.ts; `me`; field validation).
 */
import { hash as argon2Hash } from "@node-rs/argon2";
import bcrypt from "bcryptjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createProject,
  expectPlainError,
  expectSchemaError,
  expectSchemaErrorIncluding,
  PASSWORD,
  passwordSignIn,
  patchProjectConfig,
  serverWithProject,
  signUpUser,
  uniqueEmail,
  type Project,
  UNKNOWN_UUID,
} from "./fixtures.ts";
import { pngDataUrlOfLength } from "./image-fixtures.ts";
import { expectKnownError, type TestServer } from "./harness.ts";

const SERVER_VIEW_KEYS = [
  "auth_with_email",
  "client_metadata",
  "client_read_only_metadata",
  "country_code",
  "display_name",
  "has_password",
  "id",
  "is_anonymous",
  "is_restricted",
  "last_active_at_millis",
  "oauth_providers",
  "otp_auth_enabled",
  "passkey_auth_enabled",
  "primary_email",
  "primary_email_auth_enabled",
  "primary_email_verified",
  "profile_image_url",
  "requires_totp_mfa",
  "restricted_by_admin",
  "restricted_by_admin_private_details",
  "restricted_by_admin_reason",
  "restricted_reason",
  "risk_scores",
  "selected_team",
  "selected_team_id",
  "server_metadata",
  "signed_up_at_millis",
];

const CLIENT_VIEW_KEYS = [
  "auth_with_email",
  "client_metadata",
  "client_read_only_metadata",
  "display_name",
  "has_password",
  "id",
  "is_anonymous",
  "is_restricted",
  "oauth_providers",
  "otp_auth_enabled",
  "passkey_auth_enabled",
  "primary_email",
  "primary_email_verified",
  "profile_image_url",
  "requires_totp_mfa",
  "restricted_by_admin",
  "restricted_by_admin_reason",
  "restricted_reason",
  "selected_team",
  "selected_team_id",
  "signed_up_at_millis",
];

let server: TestServer;
let project: Project;

beforeAll(async () => ({ server, project } = await serverWithProject()));
afterAll(() => server?.close());

async function createUser(body: Record<string, unknown> = {}, p: Project = project) {
  const res = await server.request("/users", { method: "POST", as: p.server, body });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

async function getUser(id: string, p: Project = project) {
  const res = await server.request(`/users/${id}`, { as: p.server });
  expect(res.status, res.text).toBe(200);
  return res.body;
}

describe("POST /users (server)", () => {
  it("creates a user with the exact server view and its defaults (201)", async () => {
    const before = Date.now();
    const res = await server.request("/users", { method: "POST", as: project.server, body: {} });
    expect(res.status, res.text).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(SERVER_VIEW_KEYS);
    expect(res.body).toMatchObject({
      auth_with_email: false,
      client_metadata: null,
      client_read_only_metadata: null,
      country_code: null,
      display_name: null,
      has_password: false,
      is_anonymous: false,
      is_restricted: false,
      oauth_providers: [],
      otp_auth_enabled: false,
      passkey_auth_enabled: false,
      primary_email: null,
      primary_email_auth_enabled: false,
      primary_email_verified: false,
      profile_image_url: null,
      requires_totp_mfa: false,
      restricted_by_admin: false,
      restricted_by_admin_private_details: null,
      restricted_by_admin_reason: null,
      restricted_reason: null,
      selected_team: null,
      selected_team_id: null,
      server_metadata: null,
    });
    expect(res.body.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(res.body.signed_up_at_millis).toBeGreaterThanOrEqual(before - 5000);
    expect(res.body.signed_up_at_millis).toBeLessThanOrEqual(Date.now() + 5000);
    expect(typeof res.body.last_active_at_millis).toBe("number");
    // And it reads back the same.
    expect(await getUser(res.body.id)).toEqual(res.body);
  });

  it("sets the given fields; metadata keeps nested JSON", async () => {
    const email = uniqueEmail("created");
    const metadata = { a: [1, { b: null, c: "x" }], d: { e: { f: true } } };
    const body = await createUser({
      display_name: "Ada Lovelace",
      primary_email: email,
      primary_email_verified: true,
      client_metadata: metadata,
      client_read_only_metadata: [1, 2, 3],
      server_metadata: { secret: "s" },
      country_code: "GB",
    });
    expect(body).toMatchObject({
      display_name: "Ada Lovelace",
      primary_email: email,
      primary_email_verified: true,
      primary_email_auth_enabled: false,
      has_password: false,
      client_metadata: metadata,
      client_read_only_metadata: [1, 2, 3],
      server_metadata: { secret: "s" },
      country_code: "GB",
    });
  });

  it("with a password: the user can sign in", async () => {
    const email = uniqueEmail("withpw");
    const body = await createUser({ primary_email: email, password: PASSWORD });
    expect(body).toMatchObject({ has_password: true, auth_with_email: true, primary_email_auth_enabled: true });
    const signIn = await passwordSignIn(server, project, email);
    expect(signIn.status, signIn.text).toBe(200);
    expect(signIn.body.user_id).toBe(body.id);
    const wrong = await passwordSignIn(server, project, email, `${PASSWORD}!`);
    expectKnownError(wrong, "EMAIL_PASSWORD_MISMATCH", 400);
  });

  it("a server may set a password shorter than the sign-up minimum; empty is refused", async () => {
    const email = uniqueEmail("shortpw");
    const body = await createUser({ primary_email: email, password: "abc" });
    expect(body.has_password).toBe(true);
    const signIn = await passwordSignIn(server, project, email, "abc");
    expect(signIn.status, signIn.text).toBe(200);
    const patched = await server.request(`/users/${body.id}`, { method: "PATCH", as: project.server, body: { password: "z" } });
    expect(patched.status, patched.text).toBe(200);
    expect((await passwordSignIn(server, project, email, "z")).status).toBe(200);
    expectSchemaError(
      await server.request("/users", { method: "POST", as: project.server, body: { primary_email: uniqueEmail(), password: "" } }),
      "POST",
      "/users",
      ["body.password must not be empty"],
    );
    // Users choosing their own keep the minimum.
    expectKnownError(
      await server.request("/auth/password/sign-up", {
        method: "POST",
        as: project.client,
        body: { email: uniqueEmail(), password: "abc" },
      }),
      "PASSWORD_TOO_SHORT",
      400,
    );
  });

  it("refuses a bcrypt password_hash of cost over 16; 16 itself is taken", async () => {
    const good = bcrypt.hashSync("any password", 4);
    const withCost = (cost: number) => `${good.slice(0, 4)}${String(cost).padStart(2, "0")}${good.slice(6)}`;
    const email = uniqueEmail("bcrypt17");
    expectSchemaError(
      await server.request("/users", { method: "POST", as: project.server, body: { primary_email: email, password_hash: withCost(17) } }),
      "POST",
      "/users",
      ["body.password_hash must be a bcrypt hash of cost at most 16"],
    );
    expect((await server.request("/users", { as: project.server, query: { query: email } })).body.items).toEqual([]);
    const user = await createUser({ primary_email: email, password_hash: withCost(16) });
    expect(user.has_password).toBe(true);
    expectSchemaError(
      await server.request(`/users/${user.id}`, { method: "PATCH", as: project.server, body: { password_hash: withCost(31) } }),
      "PATCH",
      `/users/${user.id}`,
      ["body.password_hash must be a bcrypt hash of cost at most 16"],
    );
  });

  it.each<[string, (password: string) => Promise<string>, RegExp]>([
    ["argon2", (pw) => argon2Hash(pw, { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 }), /^\$argon2id\$/],
    ["bcrypt", async (pw) => bcrypt.hashSync(pw, 4), /^\$2[aby]\$04\$/],
  ])("imports a %s password_hash; the user signs in with the password", async (name, hashWith, format) => {
    const email = uniqueEmail(name);
    const password = `imported ${name} password`;
    const passwordHash = await hashWith(password);
    expect(passwordHash).toMatch(format);
    const body = await createUser({ primary_email: email, password_hash: passwordHash });
    expect(body.has_password).toBe(true);
    const ok = await passwordSignIn(server, project, email, password);
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.user_id).toBe(body.id);
    expectKnownError(await passwordSignIn(server, project, email, PASSWORD), "EMAIL_PASSWORD_MISMATCH", 400);
  });

  it("refuses a malformed password_hash, and creates nothing", async () => {
    const email = uniqueEmail("badhash");
    const res = await server.request("/users", {
      method: "POST",
      as: project.server,
      body: { primary_email: email, password_hash: "plaintext-not-a-hash" },
    });
    expectPlainError(res, 400);
    const list = await server.request("/users", { as: project.server, query: { query: email } });
    expect(list.body.items).toEqual([]);
  });

  it("refuses a duplicate sign-in e-mail (case-insensitive) with USER_EMAIL_ALREADY_EXISTS", async () => {
    const email = uniqueEmail("dupe");
    await createUser({ primary_email: email, password: PASSWORD });
    const res = await server.request("/users", {
      method: "POST",
      as: project.server,
      body: { primary_email: email.toUpperCase(), password: PASSWORD },
    });
    expectKnownError(res, "USER_EMAIL_ALREADY_EXISTS", 409);
    // The address is named lower-cased, whichever spelling was sent.
    expect(res.body.details).toEqual({ email: email.toLowerCase(), would_work_if_email_was_verified: false });
    const list = await server.request("/users", { as: project.server, query: { query: email } });
    expect(list.body.items).toHaveLength(1);
  });

  it("refuses unknown properties and bad field values", async () => {
    expectSchemaError(await server.request("/users", { method: "POST", as: project.server, body: { nickname: "x" } }), "POST", "/users", [
      "body contains unknown properties: nickname",
    ]);
    expectSchemaError(
      await server.request("/users", {
        method: "POST",
        as: project.server,
        body: { password: "a".repeat(71), primary_email: uniqueEmail() },
      }),
      "POST",
      "/users",
      ["body.password must be at most 70 characters"],
    );
  });

  it("is for server and admin only: client → INSUFFICIENT_ACCESS_TYPE", async () => {
    const res = await server.request("/users", { method: "POST", as: project.client, body: {} });
    expectKnownError(res, "INSUFFICIENT_ACCESS_TYPE", 401);
    expect(res.body.details).toEqual({ actual_access_type: "client", allowed_access_types: ["server", "admin"] });
    const admin = await server.request("/users", { method: "POST", as: project.admin, body: {} });
    expect(admin.status, admin.text).toBe(201);
  });
});

describe("e-mail rules", () => {
  const signUp = (email: string) =>
    server.request("/auth/password/sign-up", { method: "POST", as: project.client, body: { email, password: PASSWORD } });

  // What users type is held to the strict pattern; a server's write to the looser one, as the reference holds it.
  const strictOnly: [string, string][] = [
    [".leading@example.com", "leading dot"],
    ["double..dot@example.com", "double dot"],
    ["trailing.@example.com", "trailing dot"],
    ["one@example.c", "one-letter TLD"],
    ["root@intranet", "no TLD"],
  ];
  for (const [email, why] of strictOnly) {
    it(`a server may write a loosely formed address (${why}); sign-up refuses it: ${email}`, async () => {
      const address = `${Date.now()}${email}`.replace(/^(\d+)\./, ".$1");
      const created = await createUser({ primary_email: address });
      expect(created.primary_email).toBe(address);
      const patched = await server.request(`/users/${created.id}`, {
        method: "PATCH",
        as: project.server,
        body: { primary_email: `x${address}` },
      });
      expect(patched.status, patched.text).toBe(200);
      expectSchemaError(await signUp(address), "POST", "/auth/password/sign-up", ["body.email must be a valid email"]);
    });
  }

  const bad: [string, string][] = [
    ["no-at-sign.example.com", "no @"],
    ["spaces in@example.com", "spaces"],
    ["two@@example.com", "two @"],
    ["dash@-example.com", "label starting with a dash"],
  ];
  for (const [email, why] of bad) {
    it(`rejects ${why}: ${email}`, async () => {
      const res = await server.request("/users", { method: "POST", as: project.server, body: { primary_email: email } });
      expectSchemaError(res, "POST", "/users", ["body.primary_email must be a valid email"]);
      expectSchemaError(await signUp(email), "POST", "/auth/password/sign-up", ["body.email must be a valid email"]);
    });
  }

  it("accepts 256 characters and rejects 257", async () => {
    const domain = "@example.com";
    const ok = `${"a".repeat(256 - domain.length)}${domain}`;
    expect(ok).toHaveLength(256);
    const created = await createUser({ primary_email: ok });
    expect(created.primary_email).toBe(ok);
    const tooLong = `b${ok}`;
    const res = await server.request("/users", { method: "POST", as: project.server, body: { primary_email: tooLong } });
    expectSchemaErrorIncluding(res, "body.primary_email must be at most 256 characters");
  });

  it("accepts plus addressing, subdomains and long TLDs", async () => {
    for (const email of [`x+tag-${Date.now()}@mail.example.co.uk`, `first.last-${Date.now()}@example.museum`]) {
      const created = await createUser({ primary_email: email });
      expect(created.primary_email).toBe(email);
    }
  });
});

describe("GET /users (server list)", () => {
  let p: Project;
  const ids: string[] = [];
  beforeAll(async () => {
    p = await createProject(server, undefined, { create_team_on_sign_up: true });
    const names = ["Alpha Anders", "Bravo Berg", "Charlie Chen", "Delta Dunn", "Echo Evans"];
    for (const name of names) {
      const u = await createUser({ display_name: name, primary_email: uniqueEmail(name.split(" ")[0]!.toLowerCase()) }, p);
      ids.push(u.id);
    }
    const anon = await server.request("/auth/anonymous/sign-up", { method: "POST", as: p.client });
    expect(anon.status, anon.text).toBe(200);
    ids.push(anon.body.user_id); // last: anonymous
  });
  const regular = () => ids.slice(0, 5);
  const list = (query: Record<string, string | number | boolean> = {}, as = p.server) => server.request("/users", { as, query });

  it("lists ascending by sign-up time, unpaged: next_cursor null", async () => {
    const res = await list();
    expect(res.status, res.text).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(["is_paginated", "items", "pagination"]);
    expect(res.body.is_paginated).toBe(true);
    expect(res.body.pagination).toEqual({ next_cursor: null });
    expect(res.body.items.map((u: { id: string }) => u.id)).toEqual(regular());
    for (const item of res.body.items) expect(Object.keys(item).sort()).toEqual(SERVER_VIEW_KEYS);
  });

  it("pages with limit and cursor (cursor = id of the first item of the page)", async () => {
    const page1 = await list({ limit: 2 });
    expect(page1.body.items.map((u: { id: string }) => u.id)).toEqual(regular().slice(0, 2));
    expect(page1.body.pagination.next_cursor).toBe(regular()[2]);
    const page2 = await list({ limit: 2, cursor: page1.body.pagination.next_cursor });
    expect(page2.status, page2.text).toBe(200);
    expect(page2.body.items.map((u: { id: string }) => u.id)).toEqual(regular().slice(2, 4));
    expect(page2.body.pagination.next_cursor).toBe(regular()[4]);
    const page3 = await list({ limit: 2, cursor: page2.body.pagination.next_cursor });
    expect(page3.body.items.map((u: { id: string }) => u.id)).toEqual(regular().slice(4));
    expect(page3.body.pagination.next_cursor).toBeNull();
    // Exactly a full last page: no next cursor.
    const exact = await list({ limit: 5 });
    expect(exact.body.items).toHaveLength(5);
    expect(exact.body.pagination.next_cursor).toBeNull();
    // A cursor without a limit: from the cursor to the end.
    const fromCursor = await list({ cursor: regular()[3]! });
    expect(fromCursor.body.items.map((u: { id: string }) => u.id)).toEqual(regular().slice(3));
    expect(fromCursor.body.pagination.next_cursor).toBeNull();
  });

  it("desc=true reverses the order, also when paging", async () => {
    const all = await list({ desc: true });
    expect(all.body.items.map((u: { id: string }) => u.id)).toEqual([...regular()].reverse());
    const page1 = await list({ desc: true, limit: 3 });
    expect(page1.body.items.map((u: { id: string }) => u.id)).toEqual([...regular()].reverse().slice(0, 3));
    expect(page1.body.pagination.next_cursor).toBe(regular()[1]);
    const page2 = await list({ desc: true, limit: 3, cursor: page1.body.pagination.next_cursor });
    expect(page2.body.items.map((u: { id: string }) => u.id)).toEqual([regular()[1], regular()[0]]);
    expect(page2.body.pagination.next_cursor).toBeNull();
  });

  it("searches by e-mail and display name, case-insensitively", async () => {
    const byName = await list({ query: "charlie" });
    expect(byName.body.items.map((u: { id: string }) => u.id)).toEqual([regular()[2]]);
    const delta = await getUser(regular()[3]!, p);
    const byEmail = await list({ query: delta.primary_email.toUpperCase() });
    expect(byEmail.body.items.map((u: { id: string }) => u.id)).toEqual([regular()[3]]);
    const partial = await list({ query: "vans" });
    expect(partial.body.items.map((u: { id: string }) => u.id)).toEqual([regular()[4]]);
    const none = await list({ query: "zz-nobody-zz" });
    expect(none.body.items).toEqual([]);
    // LIKE wildcards are literal.
    const percent = await list({ query: "%" });
    expect(percent.body.items).toEqual([]);
  });

  it("include_anonymous=true adds anonymous users", async () => {
    const res = await list({ include_anonymous: true });
    expect(res.body.items.map((u: { id: string }) => u.id)).toEqual(ids);
    expect(res.body.items.at(-1).is_anonymous).toBe(true);
    const without = await list({ include_anonymous: false });
    expect(without.body.items.map((u: { id: string }) => u.id)).toEqual(regular());
  });

  it("only_anonymous=true lists anonymous users alone, asked for with include_anonymous=true", async () => {
    const only = await list({ include_anonymous: true, only_anonymous: true });
    expect(only.status, only.text).toBe(200);
    expect(only.body.items.map((u: { id: string }) => u.id)).toEqual(ids.slice(5));
    for (const query of [{ only_anonymous: true }, { only_anonymous: true, include_anonymous: false }] as Record<string, boolean>[]) {
      expectSchemaError(await list(query), "GET", "/users", ["query.only_anonymous requires include_anonymous=true"]);
    }
    expect((await list({ only_anonymous: false })).body.items.map((u: { id: string }) => u.id)).toEqual(regular());
    const exported = await server.request("/internal/users/export", { as: p.admin, query: { format: "json", only_anonymous: true } });
    expectSchemaError(exported, "GET", "/internal/users/export", ["query.only_anonymous requires include_anonymous=true"]);
  });

  it("team_id keeps the team's members", async () => {
    const bravo = await getUser(regular()[1]!, p);
    const team = await server.request("/teams", {
      method: "POST",
      as: p.server,
      body: { display_name: "Bravo's", creator_user_id: bravo.id },
    });
    expect(team.status, team.text).toBe(201);
    const res = await list({ team_id: team.body.id });
    expect(res.body.items.map((u: { id: string }) => u.id)).toEqual([bravo.id]);
    const unknown = await list({ team_id: UNKNOWN_UUID });
    expect(unknown.body.items).toEqual([]);
  });

  it("rejects bad query parameters", async () => {
    expectSchemaError(await list({ limit: 0 }), "GET", "/users", ["query.limit must be greater than or equal to 1"]);
    expectSchemaError(await list({ cursor: "nope" }), "GET", "/users", ["query.cursor must be a valid UUID"]);
    expectSchemaError(await list({ team_id: "nope" }), "GET", "/users", ["query.team_id must be a valid UUID"]);
    expectSchemaError(await list({ color: "red" }), "GET", "/users", ["query contains unknown properties: color"]);
    expectSchemaErrorIncluding(await list({ desc: "sideways" }), "query.desc must be one of the following values: true, false");
  });

  it("client → INSUFFICIENT_ACCESS_TYPE; admin allowed", async () => {
    const res = await list({}, p.client);
    expectKnownError(res, "INSUFFICIENT_ACCESS_TYPE", 401);
    expect(res.body.details).toEqual({ actual_access_type: "client", allowed_access_types: ["server", "admin"] });
    const user = await signUpUser(server, project);
    expectKnownError(await server.request("/users", { as: user.as }), "INSUFFICIENT_ACCESS_TYPE", 401);
    const admin = await list({}, p.admin);
    expect(admin.status).toBe(200);
    expect(admin.body.items).toHaveLength(5);
  });
});

describe("GET/PATCH/DELETE /users/{id} (server)", () => {
  it("GET: unknown id → USER_NOT_FOUND; not a UUID → SCHEMA_ERROR", async () => {
    expectKnownError(await server.request(`/users/${UNKNOWN_UUID}`, { as: project.server }), "USER_NOT_FOUND", 404);
    expectSchemaError(await server.request("/users/not-a-uuid", { as: project.server }), "GET", "/users/not-a-uuid", [
      "params.user_id must be a valid UUID",
    ]);
    expectKnownError(await server.request(`/users/${UNKNOWN_UUID}`, { as: project.client }), "INSUFFICIENT_ACCESS_TYPE", 401);
  });

  it("GET finds an anonymous user only with include_anonymous=true; a write by id still reaches them", async () => {
    const anon = await server.request("/auth/anonymous/sign-up", { method: "POST", as: project.client });
    expect(anon.status, anon.text).toBe(200);
    const id = anon.body.user_id as string;
    const found = await server.request(`/users/${id}`, { as: project.server, query: { include_anonymous: true } });
    expect(found.status, found.text).toBe(200);
    expect(found.body).toMatchObject({ id, is_anonymous: true });
    expectKnownError(await server.request(`/users/${id}`, { as: project.server }), "USER_NOT_FOUND", 404);
    expectKnownError(
      await server.request(`/users/${id}`, { as: project.server, query: { include_anonymous: false } }),
      "USER_NOT_FOUND",
      404,
    );
    const renamed = await server.request(`/users/${id}`, { method: "PATCH", as: project.server, body: { display_name: "Guest" } });
    expect(renamed.status, renamed.text).toBe(200);
    // A regular user is found either way; the flag is checked like any query value.
    const regular = await createUser({ primary_email: uniqueEmail("regular") });
    expect((await server.request(`/users/${regular.id}`, { as: project.server, query: { include_anonymous: true } })).status).toBe(200);
    expectSchemaErrorIncluding(
      await server.request(`/users/${regular.id}`, { as: project.server, query: { include_anonymous: "yes" } }),
      "query.include_anonymous must be one of the following values: true, false",
    );
  });

  it("PATCH is_anonymous: true is refused (a user leaves anonymity, never enters it); false is taken", async () => {
    const created = await createUser({ primary_email: uniqueEmail("notanon") });
    expectSchemaError(
      await server.request(`/users/${created.id}`, { method: "PATCH", as: project.server, body: { is_anonymous: true } }),
      "PATCH",
      `/users/${created.id}`,
      ["body.is_anonymous must be one of the following values: false"],
    );
    expect(await getUser(created.id)).toEqual(created);
    const kept = await server.request(`/users/${created.id}`, { method: "PATCH", as: project.server, body: { is_anonymous: false } });
    expect(kept.status, kept.text).toBe(200);
    expect(kept.body.is_anonymous).toBe(false);
    // POST /users may still create an anonymous user.
    expect((await createUser({ is_anonymous: true })).is_anonymous).toBe(true);
  });

  it("PATCH updates server fields; absent fields stay", async () => {
    const created = await createUser({ display_name: "Before", client_metadata: { keep: true } });
    const res = await server.request(`/users/${created.id}`, {
      method: "PATCH",
      as: project.server,
      body: {
        server_metadata: { tier: "gold", nested: { list: [1, 2] } },
        client_read_only_metadata: { plan: "pro" },
        display_name: "After",
        restricted_by_admin: true,
        restricted_by_admin_reason: "spam",
        restricted_by_admin_private_details: "flagged by rule 7",
      },
    });
    expect(res.status, res.text).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(SERVER_VIEW_KEYS);
    expect(res.body).toMatchObject({
      display_name: "After",
      client_metadata: { keep: true },
      server_metadata: { tier: "gold", nested: { list: [1, 2] } },
      client_read_only_metadata: { plan: "pro" },
      restricted_by_admin: true,
      restricted_by_admin_reason: "spam",
      restricted_by_admin_private_details: "flagged by rule 7",
      is_restricted: true,
      restricted_reason: { type: "restricted_by_administrator" },
    });
    expect(await getUser(created.id)).toEqual(res.body);
  });

  it("PATCH with a password lets the user sign in; null removes it", async () => {
    const email = uniqueEmail("patchpw");
    const created = await createUser({ primary_email: email, primary_email_auth_enabled: true });
    expect(created.has_password).toBe(false);
    const res = await server.request(`/users/${created.id}`, { method: "PATCH", as: project.server, body: { password: PASSWORD } });
    expect(res.body.has_password).toBe(true);
    expect((await passwordSignIn(server, project, email)).status).toBe(200);
    const removed = await server.request(`/users/${created.id}`, { method: "PATCH", as: project.server, body: { password: null } });
    expect(removed.body.has_password).toBe(false);
    expectKnownError(await passwordSignIn(server, project, email), "EMAIL_PASSWORD_MISMATCH", 400);
  });

  it("rejected PATCHes change nothing", async () => {
    const created = await createUser({ display_name: "Stable", server_metadata: { v: 1 } });
    const before = await getUser(created.id);
    const attempts = [
      { display_name: "x".repeat(257) },
      { display_name: "ok", unknown_field: 1 },
      { display_name: "ok", password: "" },
      { display_name: "ok", selected_team_id: UNKNOWN_UUID },
      { display_name: "ok", profile_image_url: "not a url" },
      { display_name: "ok", country_code: "GBR" },
    ];
    for (const body of attempts) {
      const res = await server.request(`/users/${created.id}`, { method: "PATCH", as: project.server, body });
      expect(res.status, `${JSON.stringify(body)} → ${res.text}`).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
    }
    expect(await getUser(created.id)).toEqual(before);
    expectKnownError(
      await server.request(`/users/${UNKNOWN_UUID}`, { method: "PATCH", as: project.server, body: { display_name: "x" } }),
      "USER_NOT_FOUND",
      404,
    );
    expectSchemaError(await server.request("/users/123", { method: "PATCH", as: project.server, body: {} }), "PATCH", "/users/123", [
      "params.user_id must be a valid UUID",
    ]);
  });

  it("DELETE removes the user; a second DELETE → USER_NOT_FOUND", async () => {
    const user = await signUpUser(server, project);
    const res = await server.request(`/users/${user.userId}`, { method: "DELETE", as: project.server });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ success: true });
    expectKnownError(await server.request(`/users/${user.userId}`, { as: project.server }), "USER_NOT_FOUND", 404);
    expectKnownError(await server.request(`/users/${user.userId}`, { method: "DELETE", as: project.server }), "USER_NOT_FOUND", 404);
    expectKnownError(await passwordSignIn(server, project, user.email), "EMAIL_PASSWORD_MISMATCH", 400);
    expectKnownError(await server.request("/users/me", { as: user.as }), "CANNOT_GET_OWN_USER_WITHOUT_USER", 400);
    expectSchemaError(await server.request("/users/me-not", { method: "DELETE", as: project.server }), "DELETE", "/users/me-not", [
      "params.user_id must be a valid UUID",
    ]);
    // The e-mail is free again.
    await signUpUser(server, project, user.email);
  });
});

describe("/users/me (client)", () => {
  it("GET returns exactly the client view", async () => {
    const user = await signUpUser(server, project);
    const res = await server.request("/users/me", { as: user.as });
    expect(res.status, res.text).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(CLIENT_VIEW_KEYS);
    expect(res.body).toMatchObject({
      id: user.userId,
      primary_email: user.email,
      primary_email_verified: false,
      has_password: true,
      auth_with_email: true,
      display_name: null,
      client_metadata: null,
      client_read_only_metadata: null,
      is_anonymous: false,
      selected_team: null,
      selected_team_id: null,
    });
    expect(res.body).not.toHaveProperty("server_metadata");
    // Server and admin access get the server view of the same user.
    const asServer = await server.request("/users/me", { as: { ...project.server, accessToken: user.accessToken } });
    expect(Object.keys(asServer.body).sort()).toEqual(SERVER_VIEW_KEYS);
    expect(asServer.body.id).toBe(user.userId);
  });

  it("GET shows writes at once: a server update of the user, then a project config change", async () => {
    const p = await createProject(server);
    const user = await signUpUser(server, p);
    const asServer = { ...p.server, accessToken: user.accessToken };
    // Read first, at both levels, so any remembered view exists before the writes.
    expect((await server.request("/users/me", { as: user.as })).body.display_name).toBeNull();
    expect((await server.request("/users/me", { as: asServer })).body.server_metadata).toBeNull();

    const patched = await server.request(`/users/${user.userId}`, {
      method: "PATCH",
      as: p.server,
      body: { display_name: "Ada", server_metadata: { plan: "pro" } },
    });
    expect(patched.status, patched.text).toBe(200);
    expect((await server.request("/users/me", { as: user.as })).body.display_name).toBe("Ada");
    expect((await server.request("/users/me", { as: asServer })).body.server_metadata).toEqual({ plan: "pro" });

    await patchProjectConfig(server, p, { require_email_verification: true });
    const restricted = await server.request("/users/me", { as: user.as });
    expect(restricted.body).toMatchObject({ is_restricted: true, restricted_reason: { type: "email_not_verified" } });
  });

  it("GET without a user → CANNOT_GET_OWN_USER_WITHOUT_USER", async () => {
    expectKnownError(await server.request("/users/me", { as: project.client }), "CANNOT_GET_OWN_USER_WITHOUT_USER", 400);
    expectKnownError(await server.request("/users/me", { as: project.server }), "CANNOT_GET_OWN_USER_WITHOUT_USER", 400);
    expectKnownError(
      await server.request("/users/me", { method: "PATCH", as: project.client, body: { display_name: "x" } }),
      "CANNOT_GET_OWN_USER_WITHOUT_USER",
      400,
    );
    expectKnownError(await server.request("/users/me", { method: "DELETE", as: project.client }), "CANNOT_GET_OWN_USER_WITHOUT_USER", 400);
  });

  it("PATCH: display name, '' → null, metadata round-trips nested JSON", async () => {
    const user = await signUpUser(server, project);
    const metadata = { theme: { colors: ["red", "blue"], dark: true }, n: 1.5, s: "ü✓", nil: null };
    const res = await server.request("/users/me", {
      method: "PATCH",
      as: user.as,
      body: { display_name: "Grace", client_metadata: metadata },
    });
    expect(res.status, res.text).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(CLIENT_VIEW_KEYS);
    expect(res.body.display_name).toBe("Grace");
    expect(res.body.client_metadata).toEqual(metadata);
    expect((await getUser(user.userId)).client_metadata).toEqual(metadata);
    const cleared = await server.request("/users/me", { method: "PATCH", as: user.as, body: { display_name: "" } });
    expect(cleared.body.display_name).toBeNull();
    expect(cleared.body.client_metadata).toEqual(metadata);
    const arrayMeta = await server.request("/users/me", { method: "PATCH", as: user.as, body: { client_metadata: [1, "two", [3]] } });
    expect(arrayMeta.body.client_metadata).toEqual([1, "two", [3]]);
  });

  it("PATCH refuses server-only fields, long names and big images, changing nothing", async () => {
    const user = await signUpUser(server, project);
    await server.request("/users/me", { method: "PATCH", as: user.as, body: { display_name: "Kept", client_metadata: { k: 1 } } });
    const before = await getUser(user.userId);

    expectSchemaError(
      await server.request("/users/me", {
        method: "PATCH",
        as: user.as,
        body: { display_name: "Changed", server_metadata: { admin: true } },
      }),
      "PATCH",
      "/users/me",
      ["body contains unknown properties: server_metadata"],
    );
    expectSchemaError(
      await server.request("/users/me", {
        method: "PATCH",
        as: user.as,
        body: { client_read_only_metadata: { plan: "free-upgrade" }, primary_email_verified: true },
      }),
      "PATCH",
      "/users/me",
      ["body contains unknown properties: client_read_only_metadata, primary_email_verified"],
    );
    expectSchemaError(
      await server.request("/users/me", { method: "PATCH", as: user.as, body: { password: "new password 123" } }),
      "PATCH",
      "/users/me",
      ["body contains unknown properties: password"],
    );
    expectSchemaError(
      await server.request("/users/me", { method: "PATCH", as: user.as, body: { display_name: "n".repeat(257) } }),
      "PATCH",
      "/users/me",
      ["body.display_name must be at most 256 characters"],
    );
    const big = pngDataUrlOfLength(100 * 1024 + 2);
    expectSchemaError(
      await server.request("/users/me", { method: "PATCH", as: user.as, body: { display_name: "Changed", profile_image_url: big } }),
      "PATCH",
      "/users/me",
      ["body.profile_image_url must be smaller than 100KB"],
    );
    expect(await getUser(user.userId)).toEqual(before);

    // Just under the limit is fine (stored, and answered as the address it is served at); exactly 256 characters of name too.
    const small = pngDataUrlOfLength(100 * 1024 - 2);
    const ok = await server.request("/users/me", {
      method: "PATCH",
      as: user.as,
      body: { profile_image_url: small, display_name: "n".repeat(256) },
    });
    expect(ok.status, ok.text.slice(0, 300)).toBe(200);
    expect(ok.body.profile_image_url).toMatch(new RegExp(`^http://localhost:8102/api/v1/images/${project.id}/main/[0-9a-f]{64}$`));
    expect(ok.body.display_name).toHaveLength(256);
  });

  const channelsOf = async (userId: string) => {
    const res = await server.request("/contact-channels", { as: project.server, query: { user_id: userId } });
    expect(res.status, res.text).toBe(200);
    return (res.body.items as { value: string; is_primary: boolean; is_verified: boolean; used_for_auth: boolean }[]).map((c) => ({
      value: c.value,
      is_primary: c.is_primary,
      is_verified: c.is_verified,
      used_for_auth: c.used_for_auth,
    }));
  };

  it("PATCH primary_email: a new address is unverified; the old one stays as a non-primary channel", async () => {
    const user = await signUpUser(server, project);
    await server.request(`/users/${user.userId}`, { method: "PATCH", as: project.server, body: { primary_email_verified: true } });
    expect((await getUser(user.userId)).primary_email_verified).toBe(true);
    const newEmail = uniqueEmail("moved");
    const res = await server.request("/users/me", { method: "PATCH", as: user.as, body: { primary_email: newEmail } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.primary_email).toBe(newEmail);
    expect(res.body.primary_email_verified).toBe(false);
    expect(await channelsOf(user.userId)).toEqual([
      { value: newEmail, is_primary: true, is_verified: false, used_for_auth: true },
      { value: user.email, is_primary: false, is_verified: true, used_for_auth: true },
    ]);
    // The new address signs in; the old one keeps its channel's flags.
    expect((await passwordSignIn(server, project, newEmail)).status).toBe(200);
    expect((await passwordSignIn(server, project, user.email)).status).toBe(200);
    // primary_email_verified from the body applies to the new address.
    const verified = uniqueEmail("verified");
    const again = await server.request(`/users/${user.userId}`, {
      method: "PATCH",
      as: project.server,
      body: { primary_email: verified, primary_email_verified: true },
    });
    expect(again.body).toMatchObject({ primary_email: verified, primary_email_verified: true });
    expect((await channelsOf(user.userId)).map((c) => [c.value, c.is_primary])).toEqual([
      [verified, true],
      [user.email, false],
      [newEmail, false],
    ]);
  });

  it("PATCH primary_email to one of the user's channels promotes it, keeping its verification unless the body says", async () => {
    const user = await signUpUser(server, project);
    const second = uniqueEmail("second");
    const added = await server.request("/contact-channels", {
      method: "POST",
      as: project.server,
      body: { user_id: user.userId, type: "email", value: second, used_for_auth: false, is_verified: true },
    });
    expect(added.status, added.text).toBe(201);
    const promoted = await server.request(`/users/${user.userId}`, {
      method: "PATCH",
      as: project.server,
      body: { primary_email: second.toUpperCase() },
    });
    expect(promoted.status, promoted.text).toBe(200);
    expect(promoted.body).toMatchObject({
      primary_email: second.toUpperCase(),
      primary_email_verified: true,
      primary_email_auth_enabled: false,
    });
    const channels = await channelsOf(user.userId);
    expect(channels).toHaveLength(2);
    expect(channels).toContainEqual({ value: user.email, is_primary: false, is_verified: false, used_for_auth: true });
    // Back to the first address, saying it is verified now.
    const back = await server.request(`/users/${user.userId}`, {
      method: "PATCH",
      as: project.server,
      body: { primary_email: user.email, primary_email_verified: true },
    });
    expect(back.body).toMatchObject({ primary_email: user.email, primary_email_verified: true, primary_email_auth_enabled: true });
    expect(await channelsOf(user.userId)).toHaveLength(2);
  });

  it("PATCH primary_email null keeps the address as a non-primary channel", async () => {
    const user = await signUpUser(server, project);
    const res = await server.request(`/users/${user.userId}`, { method: "PATCH", as: project.server, body: { primary_email: null } });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ primary_email: null, primary_email_verified: false, primary_email_auth_enabled: false });
    expect(await channelsOf(user.userId)).toEqual([{ value: user.email, is_primary: false, is_verified: false, used_for_auth: true }]);
  });

  it("refuses primary_email_verified or primary_email_auth_enabled true on a user left without a primary e-mail", async () => {
    const bare = await createUser();
    for (const flag of ["primary_email_verified", "primary_email_auth_enabled"]) {
      const message = new RegExp(`^${flag} cannot be true for a user without a primary e-mail`);
      expectPlainError(
        await server.request(`/users/${bare.id}`, { method: "PATCH", as: project.server, body: { [flag]: true } }),
        400,
        message,
      );
      expectPlainError(await server.request("/users", { method: "POST", as: project.server, body: { [flag]: true } }), 400, message);
      const user = await signUpUser(server, project);
      const dropping = await server.request(`/users/${user.userId}`, {
        method: "PATCH",
        as: project.server,
        body: { primary_email: null, [flag]: true, display_name: "Not kept" },
      });
      expectPlainError(dropping, 400, message);
      expect(await getUser(user.userId)).toMatchObject({ primary_email: user.email, display_name: null });
      // false is no change there.
      const off = await server.request(`/users/${bare.id}`, { method: "PATCH", as: project.server, body: { [flag]: false } });
      expect(off.status, off.text).toBe(200);
    }
    expect(await getUser(bare.id)).toEqual(bare);
  });

  it("PATCH primary_email to another user's → USER_EMAIL_ALREADY_EXISTS, nothing changes", async () => {
    const taken = await signUpUser(server, project);
    const user = await signUpUser(server, project);
    const before = await getUser(user.userId);
    for (const email of [taken.email, taken.email.toUpperCase()]) {
      const res = await server.request("/users/me", {
        method: "PATCH",
        as: user.as,
        body: { display_name: "Should not stick", primary_email: email },
      });
      expectKnownError(res, "USER_EMAIL_ALREADY_EXISTS", 409);
      expect(res.body.details).toEqual({ email: email.toLowerCase(), would_work_if_email_was_verified: false });
    }
    expect(await getUser(user.userId)).toEqual(before);
    // Same through the server endpoint, for a user without any e-mail yet.
    const bare = await createUser();
    const res = await server.request(`/users/${bare.id}`, { method: "PATCH", as: project.server, body: { primary_email: taken.email } });
    expectKnownError(res, "USER_EMAIL_ALREADY_EXISTS", 409);
    expect(await getUser(bare.id)).toEqual(bare);
  });

  it("PATCH primary_email with a bad address → SCHEMA_ERROR", async () => {
    const user = await signUpUser(server, project);
    expectSchemaError(
      await server.request("/users/me", { method: "PATCH", as: user.as, body: { primary_email: "a..b@example.com" } }),
      "PATCH",
      "/users/me",
      ["body.primary_email must be a valid email"],
    );
    expect((await getUser(user.userId)).primary_email).toBe(user.email);
  });

  it("DELETE needs client_user_deletion_enabled; then the token no longer yields a user", async () => {
    const p = await createProject(server);
    const user = await signUpUser(server, p);
    const refused = await server.request("/users/me", { method: "DELETE", as: user.as });
    expectPlainError(refused, 400);
    expect((await getUser(user.userId, p)).id).toBe(user.userId);

    await patchProjectConfig(server, p, { client_user_deletion_enabled: true });
    const res = await server.request("/users/me", { method: "DELETE", as: user.as });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ success: true });
    expectKnownError(await server.request(`/users/${user.userId}`, { as: p.server }), "USER_NOT_FOUND", 404);
    expectKnownError(await server.request("/users/me", { as: user.as }), "CANNOT_GET_OWN_USER_WITHOUT_USER", 400);
    const refresh = await server.request("/auth/sessions/current/refresh", {
      method: "POST",
      as: p.client,
      headers: { "x-stack-refresh-token": user.refreshToken },
    });
    expectKnownError(refresh, "REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED", 401);
  });

  it("server DELETE /users/me deletes regardless of client_user_deletion_enabled", async () => {
    const user = await signUpUser(server, project);
    const res = await server.request("/users/me", { method: "DELETE", as: { ...project.server, accessToken: user.accessToken } });
    expect(res.status, res.text).toBe(200);
    expectKnownError(await server.request(`/users/${user.userId}`, { as: project.server }), "USER_NOT_FOUND", 404);
  });
});

describe("unknown keys on routes that declare none", () => {
  it("GET /users/me?foo=1 → SCHEMA_ERROR naming the property", async () => {
    const user = await signUpUser(server, project);
    const res = await server.request("/users/me", { as: user.as, query: { foo: 1 } });
    expectSchemaError(res, "GET", "/users/me", ["query contains unknown properties: foo"]);
  });

  it("a body on DELETE is ignored, in any form the server reads; a malformed one is still BODY_PARSING_ERROR", async () => {
    const bodies: [string, string][] = [
      ["application/json", JSON.stringify({ confirm: true })],
      ["application/json", "[1, 2]"],
      ["application/x-www-form-urlencoded", "confirm=yes"],
      ["text/plain", "please"],
    ];
    for (const [contentType, text] of bodies) {
      const created = await createUser({ primary_email: uniqueEmail("del") });
      const res = await server.request(`/users/${created.id}`, {
        method: "DELETE",
        as: project.server,
        body: text,
        headers: { "content-type": contentType },
      });
      expect(res.status, `${contentType}: ${res.text}`).toBe(200);
      expect(res.body).toEqual({ success: true });
      expectKnownError(await server.request(`/users/${created.id}`, { as: project.server }), "USER_NOT_FOUND", 404);
    }
    const user = await signUpUser(server, project);
    const own = await server.request("/users/me", { method: "DELETE", as: user.as, body: { confirm: true } });
    expect(own.status, own.text).toBe(400); // client deletion is off here: the body played no part
    expect(own.text).toContain("Client user deletion is not enabled");
    const malformed = await server.request("/users/me", {
      method: "DELETE",
      as: user.as,
      body: "{",
      headers: { "content-type": "application/json" },
    });
    expectKnownError(malformed, "BODY_PARSING_ERROR", 400);
    expect((await server.request("/users/me", { as: user.as })).status).toBe(200);
  });
});

describe("last_active_at_millis", () => {
  it("moves forward when the user signs in again", async () => {
    const email = uniqueEmail("active");
    const created = await server.request("/users", {
      method: "POST",
      as: project.server,
      body: { primary_email: email, password: PASSWORD },
    });
    const initial = created.body.last_active_at_millis as number;
    server.clock.advance(1100);
    expect((await passwordSignIn(server, project, email)).status).toBe(200);
    const after = (await server.request(`/users/${created.body.id}`, { as: project.server })).body.last_active_at_millis;
    expect(after).toBeGreaterThan(initial);
  });
});
