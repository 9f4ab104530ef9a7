/** StackServerApp against a real server: user management and sessions for users. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KnownErrors, ServerUser, StackClientApp, StackServerApp } from "../../src/index.ts";
import { createSdkProject, type SdkProject } from "./fixtures.ts";
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

    const client = new StackClientApp({ baseUrl, projectId: project.id, publishableClientKey: project.publishableClientKey, tokenStore: "memory" });
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
    expect((await app.listUsers({ query: prefix, desc: true })).map((u) => u.displayName)).toEqual([`${prefix} 2`, `${prefix} 1`, `${prefix} 0`]);
  });

  it("creates sessions for a user (impersonation), whose tokens a client app can use", async () => {
    const user = await app.createUser({ primaryEmail: uniqueEmail("imp") });
    const session = await user.createSession({ isImpersonation: true });
    const tokens = await session.getTokens();
    const asUser = new StackClientApp({ baseUrl, projectId: project.id, publishableClientKey: project.publishableClientKey, tokenStore: tokens });
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
