/**
 * User and team API keys through the official `@stackframe/js` SDK against a
 * real Latchkey: a signed-in user creates and lists keys, a team's creator
 * does for the team, and a server app finds the user or team of a key
 * (`getUser({ apiKey })`, `getTeam({ apiKey })`) and gets null once it is
 * revoked. The SDK builds its objects from our answers, so this holds the
 * wire shapes to what it reads.
 */
import { StackClientApp, StackServerApp } from "@stackframe/js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createProject, patchProjectConfig, uniqueEmail, type Project } from "../fixtures.ts";
import { createTestServer, type TestServer } from "../harness.ts";

const PASSWORD = "sdk compat password 1";

let server: TestServer;
let baseUrl: string;
let project: Project;

beforeAll(async () => {
  server = await createTestServer();
  baseUrl = await server.listen();
  project = await createProject(server);
  await patchProjectConfig(server, project, { allow_user_api_keys: true, allow_team_api_keys: true, client_team_creation_enabled: true });
});
afterAll(() => server?.close());

function serverApp() {
  // A fresh app each time: the SDK caches the answers of its key checks.
  return new StackServerApp({
    projectId: project.id,
    publishableClientKey: project.client.publishableClientKey!,
    secretServerKey: project.server.secretServerKey!,
    baseUrl,
    tokenStore: "memory",
  });
}

async function signedInUser() {
  const app = new StackClientApp({
    projectId: project.id,
    publishableClientKey: project.client.publishableClientKey!,
    baseUrl,
    tokenStore: "memory",
    redirectMethod: "none",
  });
  const result = await app.signUpWithCredential({
    email: uniqueEmail("compat-keys"),
    password: PASSWORD,
    noRedirect: true,
    verificationCallbackUrl: "http://localhost:3000/handler/email-verification",
  });
  expect(result.status).toBe("ok");
  const user = await app.getUser();
  if (!user) throw new Error("The SDK should have a signed-in user");
  return user;
}

describe("@stackframe/js API keys against Latchkey", () => {
  it("a user's key: created once in full, listed by its last four, found by a server, refused once revoked", async () => {
    const user = await signedInUser();
    const key = await user.createApiKey({ description: "CLI", expiresAt: new Date(Date.now() + 3_600_000) });
    expect(key.value).toMatch(/^sk_[0-9a-z]{77}user1574ck4u7h[0-9a-f]{8}$/);
    expect(key).toMatchObject({ description: "CLI", type: "user", userId: user.id });
    expect(key.isValid()).toBe(true);
    const listed = await user.listApiKeys();
    expect(listed.map((k) => k.id)).toEqual([key.id]);
    expect(listed[0]!.value).toEqual({ lastFour: key.value.slice(-4) });
    expect((await serverApp().getUser({ apiKey: key.value }))?.id).toBe(user.id);
    await listed[0]!.revoke();
    expect(await serverApp().getUser({ apiKey: key.value })).toBeNull();
    expect((await user.listApiKeys())[0]!.whyInvalid()).toBe("manually-revoked");
  });

  it("a team's key: found by getTeam, and null for getUser", async () => {
    const user = await signedInUser();
    const team = await user.createTeam({ displayName: "Compat team" });
    const key = await team.createApiKey({ description: "CI", expiresAt: null });
    expect(key).toMatchObject({ type: "team", teamId: team.id });
    expect((await team.listApiKeys()).map((k) => k.id)).toEqual([key.id]);
    expect((await serverApp().getTeam({ apiKey: key.value }))?.id).toBe(team.id);
    expect(await serverApp().getUser({ apiKey: key.value })).toBeNull();
    expect(await serverApp().getUser({ apiKey: "sk_not_a_key" })).toBeNull();
  });
});
