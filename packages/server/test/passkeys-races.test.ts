/**
 * Passkey writes that race: a registration code used twice, a passkey
 * removed while a sign-in with it runs, two removals of a user's last
 * passkeys, a registration against PATCH passkey_auth_enabled:false. On
 * PostgreSQL the requests are really in flight together (row-lock.ts);
 * PGlite runs transactions one after another, so there these only check the
 * outcome of each order.
 */
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { passkeys, users } from "../src/db/schema/index.ts";
import { serverWithProject, signUpUser, type EndUser, type Project } from "./fixtures.ts";
import { expectKnownError, type TestResponse, type TestServer } from "./harness.ts";
import {
  initiateRegistration,
  LOCAL_ORIGIN,
  registerPasskey,
  signInWithPasskey,
  SoftwareAuthenticator,
  submitRegistration,
} from "./passkey-fixtures.ts";
import { queuedBehind } from "./row-lock.ts";

let server: TestServer;
let project: Project;

beforeAll(async () => ({ server, project } = await serverWithProject({ project: { passkey_enabled: true } })));
afterAll(() => server?.close());

const db = () => server.instance.services.db;

/** The user's passkeys and flag as stored, bypassing every cache. */
async function stored(userId: string): Promise<{ credentialIds: string[]; flag: boolean }> {
  const rows = await db()
    .select({ credentialId: passkeys.credentialId })
    .from(passkeys)
    .where(and(eq(passkeys.projectId, project.id), eq(passkeys.userId, userId)));
  const [user] = await db().select({ flag: users.passkeyAuthEnabled }).from(users).where(eq(users.id, userId));
  return { credentialIds: rows.map((r) => r.credentialId).sort(), flag: user!.flag };
}

async function sessionCount(userId: string): Promise<number> {
  const res = await server.request("/auth/sessions", { as: project.server, query: { user_id: userId } });
  expect(res.status, res.text).toBe(200);
  return res.body.items.length;
}

async function passkeyIds(user: EndUser): Promise<string[]> {
  const res = await server.request("/passkeys", { as: user.as, query: { user_id: "me" } });
  expect(res.status, res.text).toBe(200);
  return res.body.items.map((p: { id: string }) => p.id);
}

const remove = (user: EndUser, passkeyId: string) => () => server.request(`/passkeys/me/${passkeyId}`, { method: "DELETE", as: user.as });
const turnOff = (user: EndUser) => () =>
  server.request("/users/me", { method: "PATCH", as: user.as, body: { passkey_auth_enabled: false } });

const userRow = (user: EndUser) => ({ table: "users" as const, ids: [user.userId] });

function expectOk(res: TestResponse): void {
  expect(res.status, res.text).toBe(200);
}

describe("one registration code used twice at once", () => {
  it("registers exactly one passkey: the other answer gets VERIFICATION_CODE_ALREADY_USED", async () => {
    const user = await signUpUser(server, project);
    const { options, code } = await initiateRegistration(server, user.as);
    const credentials = [new SoftwareAuthenticator(), new SoftwareAuthenticator()].map((a) => a.register(options, LOCAL_ORIGIN));
    const results = await queuedBehind(
      server,
      userRow(user),
      credentials.map((credential) => () => submitRegistration(server, user.as, credential, code)),
    );
    expect(results.map((r) => r.status)).toEqual([200, 409]);
    expectKnownError(results[1]!, "VERIFICATION_CODE_ALREADY_USED", 409);
    expect(await stored(user.userId)).toEqual({ credentialIds: [credentials[0]!.id], flag: true });
  });
});

describe("a passkey removed while a sign-in with it runs", () => {
  it("removal first: the sign-in, which found the passkey before, answers Passkey not found and makes no session", async () => {
    const user = await signUpUser(server, project);
    const authenticator = new SoftwareAuthenticator();
    await registerPasskey(server, user, authenticator);
    const [passkeyId] = await passkeyIds(user);
    const sessionsBefore = await sessionCount(user.userId);
    const [removed, signIn] = await queuedBehind(server, userRow(user), [
      remove(user, passkeyId!),
      () => signInWithPasskey(server, project, authenticator),
    ]);
    expectOk(removed!);
    expectKnownError(signIn!, "PASSKEY_AUTHENTICATION_FAILED", 400);
    expect(signIn!.body.error).toMatch(/Passkey not found/);
    expect(await stored(user.userId)).toEqual({ credentialIds: [], flag: false });
    expect(await sessionCount(user.userId)).toBe(sessionsBefore);
  });

  it("sign-in first: it signs in, then the removal takes the passkey away for good", async () => {
    const user = await signUpUser(server, project);
    const authenticator = new SoftwareAuthenticator();
    await registerPasskey(server, user, authenticator);
    const [passkeyId] = await passkeyIds(user);
    const [signIn, removed] = await queuedBehind(server, userRow(user), [
      () => signInWithPasskey(server, project, authenticator),
      remove(user, passkeyId!),
    ]);
    expectOk(signIn!);
    expect(signIn!.body.user_id).toBe(user.userId);
    expectOk(removed!);
    expect(await stored(user.userId)).toEqual({ credentialIds: [], flag: false });
    expectKnownError(await signInWithPasskey(server, project, authenticator), "PASSKEY_AUTHENTICATION_FAILED", 400);
  });
});

describe("two removals at once", () => {
  it("of a user's last two passkeys both succeed, and passkey_auth_enabled ends false", async () => {
    const user = await signUpUser(server, project);
    for (let i = 0; i < 2; i++) await registerPasskey(server, user, new SoftwareAuthenticator());
    const ids = await passkeyIds(user);
    expect(ids).toHaveLength(2);
    // Locking the passkeys, not the user, lets both removals start before either finishes: only the
    // user's row lock they take themselves can then keep the second from missing the first's deletion.
    const results = await queuedBehind(
      server,
      { table: "passkeys", ids },
      ids.map((id) => remove(user, id)),
    );
    for (const res of results) expectOk(res);
    expect(await stored(user.userId)).toEqual({ credentialIds: [], flag: false });
    const me = await server.request("/users/me", { as: user.as });
    expect(me.body.passkey_auth_enabled).toBe(false);
  });
});

describe("a registration against PATCH passkey_auth_enabled:false", () => {
  async function registrationAgainstTurnOff(order: "registration first" | "turn-off first") {
    const user = await signUpUser(server, project);
    await registerPasskey(server, user, new SoftwareAuthenticator());
    const { options, code } = await initiateRegistration(server, user.as);
    const credential = new SoftwareAuthenticator().register(options, LOCAL_ORIGIN);
    const register = () => submitRegistration(server, user.as, credential, code);
    const requests = order === "registration first" ? [register, turnOff(user)] : [turnOff(user), register];
    const results = await queuedBehind(server, userRow(user), requests);
    for (const res of results) expectOk(res);
    return { user, credential };
  }

  it("registration first: the turn-off removes the new passkey too, and the flag is false", async () => {
    const { user } = await registrationAgainstTurnOff("registration first");
    expect(await stored(user.userId)).toEqual({ credentialIds: [], flag: false });
    expect(await passkeyIds(user)).toEqual([]);
  });

  it("turn-off first: the new passkey is the only one left, and the flag is true", async () => {
    const { user, credential } = await registrationAgainstTurnOff("turn-off first");
    expect(await stored(user.userId)).toEqual({ credentialIds: [credential.id], flag: true });
    const me = await server.request("/users/me", { as: user.as });
    expect(me.body.passkey_auth_enabled).toBe(true);
  });
});
