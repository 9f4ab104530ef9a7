/**
 * /oauth-providers: a user's OAuth accounts over HTTP. A client reads and
 * changes its own user's (the two flags only); a server any user's, and may
 * add accounts. Three rules hold on every write: one sign-in account per
 * provider per user, a provider account once per user, and a provider
 * account signs in to one user only.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createProject,
  expectPlainError,
  expectSchemaErrorIncluding,
  patchProjectConfig,
  signUpUser,
  UNKNOWN_UUID,
  type EndUser,
  type Project,
} from "./fixtures.ts";
import { createTestServer, expectKnownError, type Auth, type TestServer } from "./harness.ts";
import { OAUTH_CONFIG, oauthSignIn, providerProfile, storedAccounts, storedTokens } from "./oauth-account-fixtures.ts";

let server: TestServer;
let project: Project;

beforeAll(async () => {
  server = await createTestServer();
  project = await createProject(server, undefined, OAUTH_CONFIG);
});
afterAll(() => server?.close());

/** A user who signed up with a password, plus accounts added by the server. */
async function userWithAccounts(
  accounts: {
    provider_config_id?: string;
    account_id?: string;
    email?: string;
    allow_sign_in?: boolean;
    allow_connected_accounts?: boolean;
  }[],
) {
  const user = await signUpUser(server, project);
  const created = [];
  for (const account of accounts) created.push(await createAccount(user.userId, account));
  return { user, accounts: created };
}

async function createAccount(userId: string, fields: Record<string, unknown>) {
  const res = await server.request("/oauth-providers", {
    method: "POST",
    as: project.server,
    body: {
      user_id: userId,
      provider_config_id: "github",
      account_id: providerProfile().accountId,
      allow_sign_in: true,
      allow_connected_accounts: true,
      ...fields,
    },
  });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

function list(as: Auth, userId: string) {
  return server.request("/oauth-providers", { as, query: { user_id: userId } });
}

const CLIENT_KEYS = ["allow_connected_accounts", "allow_sign_in", "email", "id", "provider_config_id", "type", "user_id"];

describe("reading", () => {
  it("lists the user's accounts oldest first: the client without account ids, the server with them", async () => {
    const { user, accounts } = await userWithAccounts([
      { email: "gh@example.com" },
      { provider_config_id: "google", allow_sign_in: false },
    ]);
    const asClient = await list(user.as, "me");
    expect(asClient.status, asClient.text).toBe(200);
    expect(asClient.body).toEqual({
      items: [
        {
          allow_connected_accounts: true,
          allow_sign_in: true,
          email: "gh@example.com",
          id: accounts[0].id,
          provider_config_id: "github",
          type: "github",
          user_id: user.userId,
        },
        {
          allow_connected_accounts: true,
          allow_sign_in: false,
          id: accounts[1].id,
          provider_config_id: "google",
          type: "google",
          user_id: user.userId,
        },
      ],
      is_paginated: false,
    });
    expect(Object.keys(asClient.body.items[0])).toEqual(CLIENT_KEYS);
    const asServer = await list(project.server, user.userId);
    expect(asServer.body.items.map((a: { account_id: string }) => a.account_id)).toEqual([accounts[0].account_id, accounts[1].account_id]);
    expect(Object.keys(asServer.body.items[0])).toEqual(["account_id", ...CLIENT_KEYS]);
    const one = await server.request(`/oauth-providers/me/${accounts[1].id}`, { as: user.as });
    expect(one.status, one.text).toBe(200);
    expect(one.body).toEqual(asClient.body.items[1]);
    const oneAsServer = await server.request(`/oauth-providers/${user.userId}/${accounts[1].id}`, { as: project.server });
    expect(oneAsServer.body).toEqual(asServer.body.items[1]);
  });

  it("shows the accounts in the user object too, and lists what a sign-in added", async () => {
    const profile = providerProfile();
    const { user } = await oauthSignIn(server, project, { profile });
    const res = await list(project.server, user.id);
    expect(res.body.items).toEqual([expect.objectContaining({ account_id: profile.accountId, email: profile.email, allow_sign_in: true })]);
    const listed = await server.request("/users", { as: project.server });
    const json = listed.body.items.find((u: { id: string }) => u.id === user.id);
    expect(json.oauth_providers).toEqual([{ account_id: profile.accountId, email: profile.email, id: "github" }]);
  });

  it("keeps listing accounts of a provider the project no longer has; the user object leaves them out until it is back", async () => {
    const p = await createProject(server, project.owner, OAUTH_CONFIG);
    const { user } = await oauthSignIn(server, p, { profile: providerProfile(), providerConfigId: "google" });
    const [row] = (await storedAccounts(server, p)).filter((a) => a.userId === user.id);
    await patchProjectConfig(server, p, { oauth_providers: [{ id: "github", type: "shared" }] });
    const userObjectAccounts = async () => (await server.request(`/users/${user.id}`, { as: p.server })).body.oauth_providers;
    expect((await list(p.server, user.id)).body.items.map((a: { id: string }) => a.id)).toEqual([row!.id]);
    expect(await userObjectAccounts()).toEqual([]);
    expectPlainError(await server.request(`/oauth-providers/${user.id}/${row!.id}`, { as: p.server }), 404);
    await patchProjectConfig(server, p, OAUTH_CONFIG);
    expect((await list(p.server, user.id)).body.items.map((a: { id: string }) => a.id)).toEqual([row!.id]);
    expect(await userObjectAccounts()).toEqual([expect.objectContaining({ id: "google" })]);
  });

  it("refuses a client another user's accounts (403 plain text), and names no user without one", async () => {
    const { accounts } = await userWithAccounts([{}]);
    const other = await signUpUser(server, project);
    const owner = accounts[0].user_id;
    expectPlainError(await list(other.as, owner), 403, /own user/);
    expectPlainError(await server.request(`/oauth-providers/${owner}/${accounts[0].id}`, { as: other.as }), 403, /own user/);
    expectKnownError(await list(project.client, "me"), "CANNOT_GET_OWN_USER_WITHOUT_USER", 400);
    expectKnownError(await list(project.server, "me"), "CANNOT_GET_OWN_USER_WITHOUT_USER", 400);
  });

  it("answers USER_NOT_FOUND for an unknown user, 404 for an unknown or another user's account, SCHEMA_ERROR for ids that are not UUIDs", async () => {
    const { user, accounts } = await userWithAccounts([{}]);
    const other = await signUpUser(server, project);
    expectKnownError(await list(project.server, UNKNOWN_UUID), "USER_NOT_FOUND", 404);
    expectKnownError(
      await server.request(`/oauth-providers/${UNKNOWN_UUID}/${accounts[0].id}`, { as: project.server }),
      "USER_NOT_FOUND",
      404,
    );
    expectPlainError(await server.request(`/oauth-providers/${user.userId}/${UNKNOWN_UUID}`, { as: project.server }), 404, /not found/);
    expectPlainError(await server.request(`/oauth-providers/${other.userId}/${accounts[0].id}`, { as: project.server }), 404, /not found/);
    expectSchemaErrorIncluding(
      await server.request(`/oauth-providers/${user.userId}/github`, { as: project.server }),
      "params.provider_id must be a valid UUID",
    );
    expectSchemaErrorIncluding(await list(project.server, "nobody"), "query.user_id must be a valid UUID");
  });

  it("lists every user's accounts for a server naming no user; a client must name its own", async () => {
    const p = await createProject(server, project.owner, OAUTH_CONFIG);
    const first = await oauthSignIn(server, p, { profile: providerProfile() });
    const second = await oauthSignIn(server, p, { profile: providerProfile() });
    const all = await server.request("/oauth-providers", { as: p.server });
    expect(all.status, all.text).toBe(200);
    expect(all.body.items.map((a: { user_id: string }) => a.user_id)).toEqual([first.user.id, second.user.id]);
    expect(all.body.items[0]).toHaveProperty("account_id");
    expect((await server.request("/oauth-providers", { as: p.admin })).body.items).toHaveLength(2);
    // Only this project's.
    expect((await server.request("/oauth-providers", { as: project.server })).body.items).not.toContainEqual(
      expect.objectContaining({ user_id: first.user.id }),
    );
    const someone = await signUpUser(server, p);
    expectPlainError(await server.request("/oauth-providers", { as: someone.as }), 403, /own user/);
  });

  it("keeps other projects' accounts out of reach", async () => {
    const { user, accounts } = await userWithAccounts([{}]);
    const elsewhere = await createProject(server, project.owner, OAUTH_CONFIG);
    expectKnownError(await list(elsewhere.server, user.userId), "USER_NOT_FOUND", 404);
    expectKnownError(
      await server.request(`/oauth-providers/${user.userId}/${accounts[0].id}`, { as: elsewhere.server }),
      "USER_NOT_FOUND",
      404,
    );
  });
});

describe("adding (server)", () => {
  it("answers 201 with the account, which the user object then lists", async () => {
    const user = await signUpUser(server, project);
    const created = await createAccount(user.userId, { account_id: "12345", email: "me@example.com", allow_sign_in: false });
    expect(created).toEqual({
      account_id: "12345",
      allow_connected_accounts: true,
      allow_sign_in: false,
      email: "me@example.com",
      id: expect.any(String),
      provider_config_id: "github",
      type: "github",
      user_id: user.userId,
    });
    const me = await server.request("/users/me", { as: user.as });
    expect(me.body.oauth_providers).toEqual([{ account_id: "12345", email: "me@example.com", id: "github" }]);
  });

  it("is not for clients", async () => {
    const user = await signUpUser(server, project);
    const res = await server.request("/oauth-providers", {
      method: "POST",
      as: user.as,
      body: { user_id: "me", provider_config_id: "github", account_id: "1", allow_sign_in: true, allow_connected_accounts: true },
    });
    expectKnownError(res, "INSUFFICIENT_ACCESS_TYPE", 401);
  });

  it("refuses an unknown user, a provider the project does not have, and malformed bodies", async () => {
    const body = { provider_config_id: "github", account_id: "1", allow_sign_in: true, allow_connected_accounts: true };
    const post = (b: Record<string, unknown>) => server.request("/oauth-providers", { method: "POST", as: project.server, body: b });
    expectKnownError(await post({ ...body, user_id: UNKNOWN_UUID }), "USER_NOT_FOUND", 404);
    const user = await signUpUser(server, project);
    expectPlainError(await post({ ...body, user_id: user.userId, provider_config_id: "spotify" }), 404, /spotify/);
    expectSchemaErrorIncluding(await post({ ...body, user_id: user.userId, account_id: "" }), "body.account_id must not be empty");
    expectSchemaErrorIncluding(await post({ ...body, user_id: user.userId, email: "nope" }), "body.email must be a valid email");
    expectSchemaErrorIncluding(
      await post({ user_id: user.userId, provider_config_id: "github", account_id: "1" }),
      "body.allow_sign_in must be defined",
    );
    expect(await storedAccounts(server, project, "1")).toEqual([]);
  });
});

describe("the three rules", () => {
  let holder: EndUser;
  let taken: string;
  beforeAll(async () => {
    const made = await userWithAccounts([{}]);
    holder = made.user;
    taken = made.accounts[0].account_id;
  });

  it("one sign-in account per provider per user: a second one is refused, a connected-only one is fine", async () => {
    const post = (allowSignIn: boolean) =>
      server.request("/oauth-providers", {
        method: "POST",
        as: project.server,
        body: {
          user_id: holder.userId,
          provider_config_id: "github",
          account_id: providerProfile().accountId,
          allow_sign_in: allowSignIn,
          allow_connected_accounts: true,
        },
      });
    expectPlainError(await post(true), 400, /already signs in with another account of this provider/);
    expect((await post(false)).status).toBe(201);
    // Another provider is another matter.
    expect((await createAccount(holder.userId, { provider_config_id: "google" })).allow_sign_in).toBe(true);
  });

  it("a provider account once per user", async () => {
    const res = await server.request("/oauth-providers", {
      method: "POST",
      as: project.server,
      body: {
        user_id: holder.userId,
        provider_config_id: "github",
        account_id: taken,
        allow_sign_in: false,
        allow_connected_accounts: true,
      },
    });
    expectPlainError(res, 400, /already has this provider account/);
  });

  it("a provider account signs in to one user only; another user may still connect it", async () => {
    const other = await signUpUser(server, project);
    const body = { user_id: other.userId, provider_config_id: "github", account_id: taken, allow_connected_accounts: true };
    const refused = await server.request("/oauth-providers", {
      method: "POST",
      as: project.server,
      body: { ...body, allow_sign_in: true },
    });
    expectKnownError(refused, "OAUTH_PROVIDER_ACCOUNT_ID_ALREADY_USED_FOR_SIGN_IN", 400);
    const connected = await server.request("/oauth-providers", {
      method: "POST",
      as: project.server,
      body: { ...body, allow_sign_in: false },
    });
    expect(connected.status, connected.text).toBe(201);
    // Turning sign-in on for it meets the same rule.
    const patch = await server.request(`/oauth-providers/me/${connected.body.id}`, {
      method: "PATCH",
      as: other.as,
      body: { allow_sign_in: true },
    });
    expectKnownError(patch, "OAUTH_PROVIDER_ACCOUNT_ID_ALREADY_USED_FOR_SIGN_IN", 400);
    expect((await list(other.as, "me")).body.items[0].allow_sign_in).toBe(false);
    // The same account id at another provider is another account.
    expect((await createAccount(other.userId, { provider_config_id: "google", account_id: taken })).allow_sign_in).toBe(true);
  });
});

describe("changing", () => {
  it("lets the client switch sign-in and connected-account use, and the server also the e-mail and account id", async () => {
    const { user, accounts } = await userWithAccounts([{}]);
    const url = `/oauth-providers/me/${accounts[0].id}`;
    const off = await server.request(url, {
      method: "PATCH",
      as: user.as,
      body: { allow_sign_in: false, allow_connected_accounts: false },
    });
    expect(off.status, off.text).toBe(200);
    expect(off.body).toMatchObject({ allow_sign_in: false, allow_connected_accounts: false });
    expect(off.body.account_id).toBeUndefined();
    const serverUrl = `/oauth-providers/${user.userId}/${accounts[0].id}`;
    const changed = await server.request(serverUrl, {
      method: "PATCH",
      as: project.server,
      body: { email: "new@example.com", account_id: "777" },
    });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body).toMatchObject({ email: "new@example.com", account_id: "777", allow_sign_in: false });
    const me = await server.request("/users/me", { as: user.as });
    expect(me.body.oauth_providers).toEqual([{ account_id: "777", email: "new@example.com", id: "github" }]);
    const unchanged = await server.request(serverUrl, { method: "PATCH", as: project.server, body: {} });
    expect(unchanged.body).toEqual(changed.body);
  });

  it("refuses a client the server-only fields and another user's account", async () => {
    const { user, accounts } = await userWithAccounts([{}]);
    const url = `/oauth-providers/me/${accounts[0].id}`;
    expectSchemaErrorIncluding(
      await server.request(url, { method: "PATCH", as: user.as, body: { account_id: "1" } }),
      "body contains unknown properties: account_id",
    );
    const other = await signUpUser(server, project);
    const res = await server.request(`/oauth-providers/${user.userId}/${accounts[0].id}`, {
      method: "PATCH",
      as: other.as,
      body: { allow_sign_in: false },
    });
    expectPlainError(res, 403, /own user/);
    expect((await list(user.as, "me")).body.items[0].allow_sign_in).toBe(true);
  });

  it("checks the rules for the account as it would be", async () => {
    const { user, accounts } = await userWithAccounts([{}, { allow_sign_in: false }]);
    const [signIn, connected] = accounts;
    const patch = (id: string, body: Record<string, unknown>) =>
      server.request(`/oauth-providers/${user.userId}/${id}`, { method: "PATCH", as: project.server, body });
    expectPlainError(await patch(connected.id, { allow_sign_in: true }), 400, /already signs in/);
    expectPlainError(await patch(connected.id, { account_id: signIn.account_id }), 400, /already has this provider account/);
    // Changing the sign-in account's own fields does not count against itself.
    expect((await patch(signIn.id, { allow_sign_in: true, account_id: signIn.account_id })).status).toBe(200);
    // Swapping which one signs in: first off, then on.
    expect((await patch(signIn.id, { allow_sign_in: false })).status).toBe(200);
    expect((await patch(connected.id, { allow_sign_in: true })).status).toBe(200);
    const other = await userWithAccounts([{}]);
    expectKnownError(
      await patch(connected.id, { account_id: other.accounts[0].account_id }),
      "OAUTH_PROVIDER_ACCOUNT_ID_ALREADY_USED_FOR_SIGN_IN",
      400,
    );
    const items = (await list(project.server, user.userId)).body.items;
    expect(items.map((a: { allow_sign_in: boolean; account_id: string }) => [a.account_id, a.allow_sign_in])).toEqual([
      [signIn.account_id, false],
      [connected.account_id, true],
    ]);
  });

  it("answers USER_NOT_FOUND and 404 as reading does", async () => {
    const { user, accounts } = await userWithAccounts([{}]);
    const body = { allow_sign_in: false };
    expectKnownError(
      await server.request(`/oauth-providers/${UNKNOWN_UUID}/${accounts[0].id}`, { method: "PATCH", as: project.server, body }),
      "USER_NOT_FOUND",
      404,
    );
    expectPlainError(
      await server.request(`/oauth-providers/${user.userId}/${UNKNOWN_UUID}`, { method: "PATCH", as: project.server, body }),
      404,
    );
  });
});

describe("removing", () => {
  it("deletes the account and its provider tokens; the user object no longer lists it", async () => {
    const profile = providerProfile();
    const { user } = await oauthSignIn(server, project, { profile });
    const [row] = await storedAccounts(server, project, profile.accountId);
    expect(await storedTokens(server, row!.id)).toHaveLength(2);
    const res = await server.request(`/oauth-providers/${user.id}/${row!.id}`, { method: "DELETE", as: project.server });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ success: true });
    expect(await storedAccounts(server, project, profile.accountId)).toEqual([]);
    expect(await storedTokens(server, row!.id)).toEqual([]);
    expect((await server.request(`/users/${user.id}`, { as: project.server })).body.oauth_providers).toEqual([]);
    expectPlainError(await server.request(`/oauth-providers/${user.id}/${row!.id}`, { method: "DELETE", as: project.server }), 404);
  });

  it("lets a client remove its own, not another user's", async () => {
    const { user, accounts } = await userWithAccounts([{}]);
    const other = await signUpUser(server, project);
    expectPlainError(
      await server.request(`/oauth-providers/${user.userId}/${accounts[0].id}`, { method: "DELETE", as: other.as }),
      403,
      /own user/,
    );
    expect((await list(user.as, "me")).body.items).toHaveLength(1);
    const res = await server.request(`/oauth-providers/me/${accounts[0].id}`, { method: "DELETE", as: user.as });
    expect(res.status, res.text).toBe(200);
    // A signed-in user reads themselves from the cache: the removal must show.
    expect((await server.request("/users/me", { as: user.as })).body.oauth_providers).toEqual([]);
  });

  it("answers USER_NOT_FOUND for an unknown user", async () => {
    const { accounts } = await userWithAccounts([{}]);
    expectKnownError(
      await server.request(`/oauth-providers/${UNKNOWN_UUID}/${accounts[0].id}`, { method: "DELETE", as: project.server }),
      "USER_NOT_FOUND",
      404,
    );
  });
});
