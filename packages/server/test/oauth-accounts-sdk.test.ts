/**
 * The official `@stackframe/js` SDK reads a user's OAuth accounts from
 * Latchkey unchanged: the user object's list, and /oauth-providers for the
 * client (its own user: reading, switching sign-in off, removing) and the
 * server (any user, with account ids).
 */
import { StackClientApp, StackServerApp } from "@stackframe/js";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createProject, signUpUser, type Project } from "./fixtures.ts";
import { createTestServer, type TestServer } from "./harness.ts";
import { OAUTH_CONFIG, oauthSignIn, providerProfile } from "./oauth-account-fixtures.ts";

let server: TestServer;
let baseUrl: string;
let project: Project;

beforeAll(async () => {
  server = await createTestServer();
  baseUrl = await server.listen();
  project = await createProject(server, undefined, OAUTH_CONFIG);
});
afterAll(() => server?.close());

it("reads, changes and removes the accounts through the user object and listOAuthProviders, client and server", async () => {
  const user = await signUpUser(server, project);
  const github = providerProfile();
  const google = providerProfile({ email: null });
  await oauthSignIn(server, project, { profile: github, type: "link", userId: user.userId });
  await oauthSignIn(server, project, { profile: google, type: "link", userId: user.userId, providerConfigId: "google" });

  const client = new StackClientApp({
    projectId: project.id,
    publishableClientKey: project.client.publishableClientKey!,
    baseUrl,
    tokenStore: { accessToken: user.accessToken, refreshToken: user.refreshToken },
    redirectMethod: "none",
  });
  const me = await client.getUser({ or: "throw" });
  expect(me.oauthProviders).toEqual([
    { account_id: github.accountId, email: github.email, id: "github" },
    { account_id: google.accountId, email: null, id: "google" },
  ]);
  const listed = await me.listOAuthProviders();
  expect(
    listed.map((p) => ({
      type: p.type,
      userId: p.userId,
      email: p.email,
      allowSignIn: p.allowSignIn,
      allowConnectedAccounts: p.allowConnectedAccounts,
    })),
  ).toEqual([
    { type: "github", userId: user.userId, email: github.email, allowSignIn: true, allowConnectedAccounts: true },
    { type: "google", userId: user.userId, email: undefined, allowSignIn: true, allowConnectedAccounts: true },
  ]);
  expect((await me.getOAuthProvider(listed[1]!.id))?.type).toBe("google");
  const updated = await listed[1]!.update({ allowSignIn: false });
  expect(updated.status).toBe("ok");
  await listed[0]!.delete();
  expect((await me.listOAuthProviders()).map((p) => [p.type, p.allowSignIn])).toEqual([["google", false]]);

  const serverApp = new StackServerApp({
    projectId: project.id,
    publishableClientKey: project.client.publishableClientKey!,
    secretServerKey: project.server.secretServerKey!,
    baseUrl,
    tokenStore: "memory",
  });
  const serverUser = await serverApp.getUser(user.userId);
  const asServer = await serverUser!.listOAuthProviders();
  expect(asServer.map((p) => [p.type, p.accountId, p.allowSignIn])).toEqual([["google", google.accountId, false]]);
});
