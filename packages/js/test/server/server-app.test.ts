/** StackServerApp against a real server: user management and sessions for users. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CurrentServerUser, CurrentUser, KnownErrors, ServerUser, StackAdminApp, StackClientApp, StackServerApp } from "../../src/index.ts";
import { createSdkProject, type SdkProject, clientAppOf } from "./fixtures.ts";
import { PASSWORD, startServer, uniqueEmail, type TestServer } from "./support.ts";

let server: TestServer;
let baseUrl: string;
let project: SdkProject;
let app: StackServerApp;

beforeAll(async () => {
  ({ server, baseUrl } = await startServer());
  project = await createSdkProject(baseUrl);
  app = new StackServerApp({ baseUrl, projectId: project.id, secretServerKey: project.secretServerKey });
});
afterAll(() => server?.close());

describe("StackServerApp", () => {
  it("needs its secret key", () => {
    expect(() => new StackServerApp({ baseUrl, projectId: project.id, secretServerKey: "" })).toThrow(/secretServerKey/);
  });

  it("creates a user who can then sign in, reads and updates them", async () => {
    const email = uniqueEmail("created");
    const user = await app.createUser({ primaryEmail: email, primaryEmailAuthEnabled: true, password: PASSWORD, displayName: "Ada" });
    expect(user).toBeInstanceOf(ServerUser);
    expect(user).toMatchObject({ primaryEmail: email, displayName: "Ada", hasPassword: true, serverMetadata: null });
    expect(user.lastActiveAt).toBeInstanceOf(Date);

    await user.update({ serverMetadata: { plan: "pro" }, clientReadOnlyMetadata: { tier: 2 } });
    const read = await app.getUser(user.id);
    expect(read).toMatchObject({ serverMetadata: { plan: "pro" }, clientReadOnlyMetadata: { tier: 2 } });

    const client = clientAppOf(baseUrl, project);
    expect((await client.signInWithCredential({ email, password: PASSWORD, noRedirect: true })).status).toBe("ok");
    // The client never sees server metadata.
    expect((await client.getUser({ or: "throw" })).toClientJson()).not.toHaveProperty("server_metadata");
  });

  it("returns null for an unknown id, and refuses a duplicate e-mail", async () => {
    expect(await app.getUser("00000000-0000-4000-8000-000000000000")).toBeNull();
    const email = uniqueEmail("dup");
    await app.createUser({ primaryEmail: email, primaryEmailAuthEnabled: true });
    await expect(app.createUser({ primaryEmail: email, primaryEmailAuthEnabled: true })).rejects.toBeInstanceOf(
      KnownErrors.UserWithEmailAlreadyExists,
    );
  });

  it("lists users in pages", async () => {
    const prefix = `page-${Date.now().toString(36)}`;
    for (let i = 0; i < 3; i++) await app.createUser({ primaryEmail: `${prefix}-${i}@example.com`, displayName: `${prefix} ${i}` });
    const first = await app.listUsers({ query: prefix, limit: 2 });
    expect(first.map((u) => u.displayName)).toEqual([`${prefix} 0`, `${prefix} 1`]);
    expect(first.nextCursor).not.toBeNull();
    const second = await app.listUsers({ query: prefix, limit: 2, cursor: first.nextCursor! });
    expect(second.map((u) => u.displayName)).toEqual([`${prefix} 2`]);
    expect(second.nextCursor).toBeNull();
    expect((await app.listUsers({ query: prefix, desc: true })).map((u) => u.displayName)).toEqual([
      `${prefix} 2`,
      `${prefix} 1`,
      `${prefix} 0`,
    ]);
  });

  it("creates sessions for a user (impersonation), whose tokens a client app can use", async () => {
    const user = await app.createUser({ primaryEmail: uniqueEmail("imp") });
    const session = await user.createSession({ isImpersonation: true });
    const tokens = await session.getTokens();
    const asUser = new StackClientApp({
      baseUrl,
      projectId: project.id,
      publishableClientKey: project.publishableClientKey,
      tokenStore: tokens,
    });
    expect((await asUser.getUser({ or: "throw" })).id).toBe(user.id);
    // Impersonation sessions are hidden from everyone but admins.
    expect(await user.getActiveSessions()).toEqual([]);
  });

  it("deletes a user", async () => {
    const user = await app.createUser({ primaryEmail: uniqueEmail("del") });
    await user.delete();
    expect(await app.getUser(user.id)).toBeNull();
  });
});

describe("StackServerApp's signed-in user", () => {
  /** A user created with server metadata, signed in through a client app: their tokens. */
  async function signedInTokens() {
    const email = uniqueEmail("me");
    const created = await app.createUser({
      primaryEmail: email,
      primaryEmailAuthEnabled: true,
      password: PASSWORD,
      serverMetadata: { plan: "pro" },
    });
    const client = clientAppOf(baseUrl, project);
    expect((await client.signInWithCredential({ email, password: PASSWORD, noRedirect: true })).status).toBe("ok");
    return { id: created.id, email, tokens: await client.getAuthJson() };
  }

  it("is the server's view of the user of a token store, with server fields and the signed-in user's methods", async () => {
    const { id, email, tokens } = await signedInTokens();
    const me = await app.getUser({ tokenStore: tokens, or: "throw" });
    expect(me).toBeInstanceOf(CurrentServerUser);
    expect(me).toBeInstanceOf(CurrentUser);
    expect(me).toMatchObject({ id, primaryEmail: email, serverMetadata: { plan: "pro" }, primaryEmailAuthEnabled: true });
    expect(me.lastActiveAt).toBeInstanceOf(Date);
    expect(me.lastActiveAt.getTime()).toBeGreaterThan(Date.now() - 60_000);
    expect(me.toServerJson()).toHaveProperty("server_metadata", { plan: "pro" });

    // Updates go through /users/me with server access, so the server fields can be set.
    await me.setServerMetadata({ plan: "team" });
    await me.update({ clientReadOnlyMetadata: { seats: 5 }, displayName: "Me" });
    expect(await app.getUser(id)).toMatchObject({
      serverMetadata: { plan: "team" },
      clientReadOnlyMetadata: { seats: 5 },
      displayName: "Me",
    });
    expect((await app.getUser({ tokenStore: tokens }))?.serverMetadata).toEqual({ plan: "team" });
    expect((await me.listContactChannels()).map((c) => c.value)).toEqual([email]);

    await me.signOut();
    expect(await app.getUser({ tokenStore: tokens })).toBeNull();
  });

  it("is the server's view for a server app with its own token store, and for an admin app", async () => {
    const { id, tokens } = await signedInTokens();
    const withStore = new StackServerApp({ baseUrl, projectId: project.id, secretServerKey: project.secretServerKey, tokenStore: tokens });
    const me = await withStore.getUser();
    expect(me).toBeInstanceOf(CurrentServerUser);
    expect(me?.serverMetadata).toEqual({ plan: "pro" });

    const admin = new StackAdminApp({
      baseUrl,
      projectId: project.id,
      superSecretAdminKey: project.superSecretAdminKey,
      tokenStore: tokens,
    });
    const asAdmin = await admin.getUser({ or: "throw" });
    expect(asAdmin).toBeInstanceOf(CurrentServerUser);
    expect(asAdmin).toMatchObject({ id, serverMetadata: { plan: "pro" } });
    expect(asAdmin.lastActiveAt).toBeInstanceOf(Date);
  });

  it("is still the client view for a client app", async () => {
    const { tokens } = await signedInTokens();
    const client = new StackClientApp({
      baseUrl,
      projectId: project.id,
      publishableClientKey: project.publishableClientKey,
      tokenStore: tokens,
    });
    const me = await client.getUser({ or: "throw" });
    expect(me).not.toBeInstanceOf(CurrentServerUser);
    expect(me).not.toHaveProperty("serverMetadata");
  });
});
