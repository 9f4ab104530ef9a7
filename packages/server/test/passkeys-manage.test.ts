/**
 * A user's passkeys: listing, renaming and removing them (GET /passkeys,
 * PATCH and DELETE /passkeys/{user_id}/{passkey_id}), who may do so, and
 * `passkey_auth_enabled`, which says whether the user has one.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createProject,
  expectPlainError,
  expectSchemaErrorIncluding,
  serverWithProject,
  signUpUser,
  UNKNOWN_UUID,
  type EndUser,
  type Project,
} from "./fixtures.ts";
import { expectKnownError, type Auth, type TestServer } from "./harness.ts";
import { listPasskeys, registerPasskey, signInWithPasskey, SoftwareAuthenticator } from "./passkey-fixtures.ts";

let server: TestServer;
let project: Project;

beforeAll(async () => ({ server, project } = await serverWithProject({ project: { passkey_enabled: true } })));
afterAll(() => server?.close());

async function userWithPasskeys(count: number): Promise<{ user: EndUser; authenticators: SoftwareAuthenticator[] }> {
  const user = await signUpUser(server, project);
  const authenticators: SoftwareAuthenticator[] = [];
  for (let i = 0; i < count; i++) {
    const authenticator = new SoftwareAuthenticator();
    await registerPasskey(server, user, authenticator);
    authenticators.push(authenticator);
  }
  return { user, authenticators };
}

async function passkeyFlag(userId: string): Promise<boolean> {
  const res = await server.request(`/users/${userId}`, { as: project.server });
  expect(res.status, res.text).toBe(200);
  return res.body.passkey_auth_enabled;
}

const rename = (as: Auth, userId: string, passkeyId: string, displayName: unknown) =>
  server.request(`/passkeys/${userId}/${passkeyId}`, { method: "PATCH", as, body: { display_name: displayName } });
const remove = (as: Auth, userId: string, passkeyId: string) =>
  server.request(`/passkeys/${userId}/${passkeyId}`, { method: "DELETE", as });

describe("a user's passkeys", () => {
  it("are listed oldest first, for the user themselves and for a server", async () => {
    const { user } = await userWithPasskeys(2);
    const mine = await listPasskeys(server, user.as);
    expect(mine).toHaveLength(2);
    expect(Object.keys(mine[0]).sort()).toEqual([
      "backed_up",
      "created_at_millis",
      "device_type",
      "display_name",
      "id",
      "last_used_at_millis",
      "user_id",
    ]);
    expect(mine[0].created_at_millis).toBeLessThanOrEqual(mine[1].created_at_millis);
    expect(await listPasskeys(server, user.as, user.userId)).toEqual(mine);
    expect(await listPasskeys(server, project.server, user.userId)).toEqual(mine);
    expect(await listPasskeys(server, project.admin, user.userId)).toEqual(mine);
    const none = await signUpUser(server, project);
    expect(await listPasskeys(server, none.as)).toEqual([]);
  });

  it("can be renamed; a blank or too long name is refused", async () => {
    const { user } = await userWithPasskeys(1);
    const [passkey] = await listPasskeys(server, user.as);
    const res = await rename(user.as, "me", passkey.id, "  Work laptop  ");
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ ...passkey, display_name: "Work laptop" });
    expect((await listPasskeys(server, user.as))[0].display_name).toBe("Work laptop");
    expectSchemaErrorIncluding(await rename(user.as, "me", passkey.id, "   "), "body.display_name must not be empty");
    expectSchemaErrorIncluding(
      await rename(user.as, "me", passkey.id, "x".repeat(257)),
      "body.display_name must be at most 256 characters",
    );
    const byServer = await rename(project.server, user.userId, passkey.id, "Renamed by support");
    expect(byServer.body.display_name).toBe("Renamed by support");
  });

  it("can be removed one by one: the removed one no longer signs in, and the flag clears with the last", async () => {
    const { user, authenticators } = await userWithPasskeys(2);
    const [first, second] = await listPasskeys(server, user.as);
    expect(await passkeyFlag(user.userId)).toBe(true);

    const removed = await remove(user.as, "me", first.id);
    expect(removed.status, removed.text).toBe(200);
    expect(removed.body).toEqual({ success: true });
    expect((await listPasskeys(server, user.as)).map((p) => p.id)).toEqual([second.id]);
    expect(await passkeyFlag(user.userId)).toBe(true);
    const removedSignIn = await signInWithPasskey(server, project, authenticators[0]!);
    expectKnownError(removedSignIn, "PASSKEY_AUTHENTICATION_FAILED", 400);
    expect((await signInWithPasskey(server, project, authenticators[1]!)).status).toBe(200);

    expect((await remove(project.server, user.userId, second.id)).status).toBe(200);
    expect(await listPasskeys(server, user.as)).toEqual([]);
    expect(await passkeyFlag(user.userId)).toBe(false);
    const me = await server.request("/users/me", { as: user.as });
    expect(me.body.passkey_auth_enabled).toBe(false);
  });

  it("answers 404 for a passkey that is not the named user's", async () => {
    const { user } = await userWithPasskeys(1);
    const { user: other } = await userWithPasskeys(1);
    const [othersPasskey] = await listPasskeys(server, other.as);
    for (const res of [
      await remove(project.server, user.userId, othersPasskey.id),
      await rename(project.server, user.userId, othersPasskey.id, "mine now"),
      await remove(user.as, "me", UNKNOWN_UUID),
    ]) {
      expectPlainError(res, 404, /Passkey not found/);
    }
    expect(await listPasskeys(server, other.as)).toHaveLength(1);
  });

  it("are only the client's own: another user's are refused with 403", async () => {
    const { user } = await userWithPasskeys(1);
    const { user: other } = await userWithPasskeys(1);
    const [othersPasskey] = await listPasskeys(server, other.as);
    const list = await server.request("/passkeys", { as: user.as, query: { user_id: other.userId } });
    expectPlainError(list, 403, /only act for its own user/);
    expectPlainError(await rename(user.as, other.userId, othersPasskey.id, "taken"), 403, /only act for its own user/);
    expectPlainError(await remove(user.as, other.userId, othersPasskey.id), 403, /only act for its own user/);
    expect((await listPasskeys(server, other.as))[0].display_name).toBe(othersPasskey.display_name);
  });

  it("need a user: me without one, an unknown user, and a user of another project are refused", async () => {
    const noUser = await server.request("/passkeys", { as: project.client, query: { user_id: "me" } });
    expectKnownError(noUser, "CANNOT_GET_OWN_USER_WITHOUT_USER", 400);
    const unknown = await server.request("/passkeys", { as: project.server, query: { user_id: UNKNOWN_UUID } });
    expectKnownError(unknown, "USER_ID_DOES_NOT_EXIST", 400);
    const elsewhere = await createProject(server, undefined, { passkey_enabled: true });
    const stranger = await signUpUser(server, elsewhere);
    const foreign = await server.request("/passkeys", { as: project.server, query: { user_id: stranger.userId } });
    expectKnownError(foreign, "USER_ID_DOES_NOT_EXIST", 400);
    expectSchemaErrorIncluding(
      await server.request("/passkeys", { as: project.server, query: { user_id: "nope" } }),
      "query.user_id must be a valid UUID",
    );
  });

  it("stay manageable when the project turns passkeys off", async () => {
    const { user } = await userWithPasskeys(1);
    const [passkey] = await listPasskeys(server, user.as);
    const off = await server.request("/internal/projects/current", {
      method: "PATCH",
      as: project.admin,
      body: { config: { passkey_enabled: false } },
    });
    expect(off.status, off.text).toBe(200);
    try {
      expect(await listPasskeys(server, user.as)).toHaveLength(1);
      expect((await remove(user.as, "me", passkey.id)).status).toBe(200);
    } finally {
      await server.request("/internal/projects/current", {
        method: "PATCH",
        as: project.admin,
        body: { config: { passkey_enabled: true } },
      });
    }
  });
});

describe("passkey_auth_enabled on the user", () => {
  it("false removes every passkey of the user (client and server)", async () => {
    const { user, authenticators } = await userWithPasskeys(2);
    const res = await server.request("/users/me", { method: "PATCH", as: user.as, body: { passkey_auth_enabled: false } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.passkey_auth_enabled).toBe(false);
    expect(await listPasskeys(server, user.as)).toEqual([]);
    expectKnownError(await signInWithPasskey(server, project, authenticators[0]!), "PASSKEY_AUTHENTICATION_FAILED", 400);

    const { user: other } = await userWithPasskeys(1);
    const byServer = await server.request(`/users/${other.userId}`, {
      method: "PATCH",
      as: project.server,
      body: { passkey_auth_enabled: false },
    });
    expect(byServer.body.passkey_auth_enabled).toBe(false);
    expect(await listPasskeys(server, other.as)).toEqual([]);
  });

  it("true is refused with 400, and nothing changes", async () => {
    const user = await signUpUser(server, project);
    const message = /^Cannot manually enable passkey auth, it is enabled iff there is a passkey auth method$/;
    const res = await server.request("/users/me", {
      method: "PATCH",
      as: user.as,
      body: { passkey_auth_enabled: true, display_name: "Not saved" },
    });
    expectPlainError(res, 400, message);
    const me = await server.request("/users/me", { as: user.as });
    expect(me.body).toMatchObject({ passkey_auth_enabled: false, display_name: null });
    const byServer = await server.request(`/users/${user.userId}`, {
      method: "PATCH",
      as: project.server,
      body: { passkey_auth_enabled: true },
    });
    expectPlainError(byServer, 400, message);
    const created = await server.request("/users", { method: "POST", as: project.server, body: { passkey_auth_enabled: true } });
    expectPlainError(created, 400, message);
  });

  it("is true once a passkey is registered", async () => {
    const user = await signUpUser(server, project);
    expect(await passkeyFlag(user.userId)).toBe(false);
    await registerPasskey(server, user, new SoftwareAuthenticator());
    expect(await passkeyFlag(user.userId)).toBe(true);
  });
});
