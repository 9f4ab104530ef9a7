/**
 * User and team API keys through the SDK against a real server: the signed-in
 * user's keys (create once in full, list, describe, revoke; the cached list
 * hooks read follows), a server's user and team objects, a team's keys from a
 * member, and `getUser({ apiKey })` / `getTeam({ apiKey })` on a server app
 * (null for any key that may not be used).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HttpError, KnownErrors, ServerUser, StackServerApp } from "../../src/index.ts";
import { clientAppOf, createSdkProject, type SdkProject } from "./fixtures.ts";
import { nextSnapshot, PASSWORD, startServer, uniqueEmail, type TestServer } from "./support.ts";

let server: TestServer;
let baseUrl: string;
let project: SdkProject;
let serverApp: StackServerApp;

beforeAll(async () => {
  ({ server, baseUrl } = await startServer());
  project = await createSdkProject(baseUrl, { allowUserApiKeys: true, allowTeamApiKeys: true, clientTeamCreationEnabled: true });
  serverApp = new StackServerApp({ baseUrl, projectId: project.id, secretServerKey: project.secretServerKey });
});
afterAll(() => server?.close());

async function signedUp(of: SdkProject = project) {
  const app = clientAppOf(baseUrl, of);
  const result = await app.signUpWithCredential({ email: uniqueEmail("keys"), password: PASSWORD, noRedirect: true });
  if (result.status !== "ok") throw result.error;
  return { app, user: await app.getUser({ or: "throw" }) };
}

describe("the signed-in user's keys", () => {
  it("createApiKey answers the whole key once; listApiKeys shows its last four", async () => {
    const { user } = await signedUp();
    const expiresAt = new Date(Date.now() + 3_600_000);
    const key = await user.createApiKey({ description: "CLI", expiresAt });
    expect(key).toMatchObject({
      description: "CLI",
      type: "user",
      userId: user.id,
      isPublic: false,
      manuallyRevokedAt: null,
      lastUsedAt: null,
    });
    expect(key.expiresAt?.getTime()).toBe(expiresAt.getTime());
    expect(key.value).toMatch(/^sk_[0-9a-z]{77}user1574ck4u7h[0-9a-f]{8}$/);
    expect(key.isValid()).toBe(true);
    expect(key.whyInvalid()).toBeNull();
    const listed = await user.listApiKeys();
    expect(listed.map((k) => k.id)).toEqual([key.id]);
    expect(listed[0]!.value).toEqual({ lastFour: key.value.slice(-4) });
    const never = await user.createApiKey({ description: "forever", expiresAt: null, isPublic: true });
    expect(never.expiresAt).toBeUndefined();
    expect(never.value.startsWith("pk_")).toBe(true);
  });

  it("the list hooks read follows the SDK's writes, and revoke is for good", async () => {
    const { user } = await signedUp();
    const entry = user._apiKeysEntry();
    expect(await entry.get()).toEqual([]);
    const created = nextSnapshot(entry, (s) => s.status === "ok" && s.value.length === 1);
    const key = await user.createApiKey({ description: "first", expiresAt: null });
    expect((await created.seen).map((k) => k.id)).toEqual([key.id]);
    created.unsubscribe();

    const [listed] = await user.listApiKeys();
    await listed!.update({ description: "renamed" });
    const revoked = nextSnapshot(entry, (s) => s.status === "ok" && s.value[0]?.manuallyRevokedAt !== null);
    await listed!.revoke();
    const [after] = await revoked.seen;
    revoked.unsubscribe();
    expect(after).toMatchObject({ description: "renamed" });
    expect(after!.isValid()).toBe(false);
    expect(after!.whyInvalid()).toBe("manually-revoked");
  });

  it("an expired key says so", async () => {
    const { user } = await signedUp();
    const key = await user.createApiKey({ description: "old", expiresAt: new Date(Date.now() - 1000) });
    expect(key.whyInvalid()).toBe("expired");
    const [listed] = await user.listApiKeys();
    expect(listed!.isValid()).toBe(false);
  });
});

describe("a server app", () => {
  it("getUser({ apiKey }) is the key's user, and null once the key may not be used", async () => {
    const { user } = await signedUp();
    const key = await user.createApiKey({ description: "bot", expiresAt: null });
    const found = await serverApp.getUser({ apiKey: key.value });
    expect(found).toBeInstanceOf(ServerUser);
    expect(found?.id).toBe(user.id);
    // A typo, an unknown key, and (after the revocation) the key itself.
    expect(await serverApp.getUser({ apiKey: key.value.slice(0, -1) + (key.value.endsWith("0") ? "1" : "0") })).toBeNull();
    expect(await serverApp.getUser({ apiKey: "sk_not_a_key" })).toBeNull();
    await key.revoke();
    expect(await serverApp.getUser({ apiKey: key.value })).toBeNull();
    const expired = await user.createApiKey({ description: "old", expiresAt: new Date(Date.now() - 1000) });
    expect(await serverApp.getUser({ apiKey: expired.value })).toBeNull();
  });

  it("manages any user's keys through the user object", async () => {
    const { user } = await signedUp();
    const other = await serverApp.getUser(user.id);
    const key = await other!.createApiKey({ description: "made by the server", expiresAt: null });
    expect(key.userId).toBe(user.id);
    const listed = await other!.listApiKeys();
    expect(listed.map((k) => k.id)).toEqual([key.id]);
    await listed[0]!.revoke();
    expect((await user.listApiKeys())[0]!.whyInvalid()).toBe("manually-revoked");
  });

  it("getTeam({ apiKey }) is the key's team; a user key (and a team key to getUser) is null", async () => {
    const { user } = await signedUp();
    const team = await user.createTeam({ displayName: "Crew" });
    const key = await team.createApiKey({ description: "CI", expiresAt: null });
    expect(key).toMatchObject({ type: "team", teamId: team.id });
    expect(key.value).toMatch(/team1574ck4u7h[0-9a-f]{8}$/);
    expect((await team.listApiKeys()).map((k) => k.id)).toEqual([key.id]);
    expect((await serverApp.getTeam({ apiKey: key.value }))?.id).toBe(team.id);
    expect(await serverApp.getUser({ apiKey: key.value })).toBeNull();
    const userKey = await user.createApiKey({ description: "mine", expiresAt: null });
    expect(await serverApp.getTeam({ apiKey: userKey.value })).toBeNull();
    const serverTeam = await serverApp.getTeam(team.id);
    await (await serverTeam!.listApiKeys())[0]!.revoke();
    expect(await serverApp.getTeam({ apiKey: key.value })).toBeNull();
  });

  it("a member without $manage_api_keys cannot see a team's keys", async () => {
    const { user: owner } = await signedUp();
    const team = await owner.createTeam({ displayName: "Owned" });
    const { user: member } = await signedUp();
    await (await serverApp.getTeam(team.id))!.addUser(member.id);
    const asMember = await member.getTeam(team.id);
    await expect(asMember!.listApiKeys()).rejects.toBeInstanceOf(KnownErrors.ApiKeyNotFound);
  });

  it("with the setting off, getUser({ apiKey }) throws the server's refusal", async () => {
    const off = await createSdkProject(baseUrl);
    const app = new StackServerApp({ baseUrl, projectId: off.id, secretServerKey: off.secretServerKey });
    const error = await app.getUser({ apiKey: "sk_anything" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect(String((error as Error).message)).toContain("User API keys are not enabled for this project.");
  });
});
