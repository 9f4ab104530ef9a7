/**
 * Project owners and administration through the SDK against a real server:
 * an owner signs up on the internal project, creates a project, makes keys
 * with `project.app`, and an admin app with those keys edits the project and
 * revokes keys.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KnownErrors, StackAdminApp, StackClientApp, type CurrentInternalUser } from "../../src/index.ts";
import { createSdkProject, signUpOwner } from "./fixtures.ts";
import { PASSWORD, SEED_KEYS, startServer, uniqueEmail, type TestServer } from "./support.ts";

let server: TestServer;
let baseUrl: string;

beforeAll(async () => {
  ({ server, baseUrl } = await startServer());
});
afterAll(() => server?.close());

const signedUpOwner = () => signUpOwner(baseUrl);

describe("project owners", () => {
  it("create a project, list it, and make its keys through project.app", async () => {
    const owner = await signedUpOwner();
    expect(owner.selectedTeam?.displayName).toBe(`${owner.primaryEmail}'s Team`);

    const project = await owner.createProject({
      displayName: "Shop",
      description: "the shop",
      logoUrl: "https://shop.example.com/mark.png",
      config: { signUpEnabled: true },
    });
    expect(project).toMatchObject({ displayName: "Shop", description: "the shop", ownerTeamId: owner.selectedTeamId });
    expect(project.config.credentialEnabled).toBe(true);
    expect((await owner.listOwnedProjects()).map((p) => p.id)).toEqual([project.id]);

    // The owner's session manages the project's users too (server endpoints, admin access).
    const created = await project.app.createUser({ primaryEmail: uniqueEmail("managed"), displayName: "Managed" });
    expect((await project.app.listUsers()).map((u) => u.id)).toEqual([created.id]);
    await created.update({ serverMetadata: { note: "by the owner" } });
    expect((await project.app.getUser(created.id))?.serverMetadata).toEqual({ note: "by the owner" });

    const keys = await project.app.createInternalApiKey({
      description: "web",
      expiresAt: new Date(Date.now() + 3_600_000),
      hasPublishableClientKey: true,
      hasSecretServerKey: true,
      hasSuperSecretAdminKey: false,
    });
    expect(keys.publishableClientKey).toMatch(/^pck_[0-9a-z]{45}$/);
    expect(keys.secretServerKey).toMatch(/^ssk_[0-9a-z]{45}$/);
    expect(keys.superSecretAdminKey).toBeNull();

    // The new keys work for the new project's end users.
    const endUsers = new StackClientApp({
      baseUrl,
      projectId: project.id,
      publishableClientKey: keys.publishableClientKey!,
      tokenStore: "memory",
    });
    // Their sign-in pages show the project's name and logos.
    expect(await endUsers.getProject()).toMatchObject({
      displayName: "Shop",
      logoUrl: "https://shop.example.com/mark.png",
      logoFullUrl: null,
    });
  });

  it("keep one admin app per project (and its cache) across re-lists, until they sign in again", async () => {
    const internal = new StackClientApp({
      baseUrl,
      projectId: "internal",
      publishableClientKey: SEED_KEYS.publishableClientKey,
      tokenStore: "memory",
    });
    const email = uniqueEmail("owner");
    expect((await internal.signUpWithCredential({ email, password: PASSWORD, noRedirect: true })).status).toBe("ok");
    const owner = (await internal.getUser({ or: "throw" })) as CurrentInternalUser;
    const made = await owner.createProject({ displayName: "Kept app" });
    const [listed] = await owner.listOwnedProjects();
    expect(listed!.app).toBe(made.app);
    expect((await owner.listOwnedProjects())[0]!.app).toBe(made.app);

    await internal.signOut();
    expect((await internal.signInWithCredential({ email, password: PASSWORD, noRedirect: true })).status).toBe("ok");
    const again = (await internal.getUser({ or: "throw" })) as CurrentInternalUser;
    const [relisted] = await again.listOwnedProjects();
    expect(relisted!.id).toBe(made.id);
    expect(relisted!.app).not.toBe(made.app);
    expect((await relisted!.app.getProject()).displayName).toBe("Kept app");
  });

  it("administer only their own projects", async () => {
    const alice = await signedUpOwner();
    const bob = await signedUpOwner();
    const alicesProject = await alice.createProject({ displayName: "Alice's" });
    expect(await bob.listOwnedProjects()).toEqual([]);
    const asAlice = new StackAdminApp({
      baseUrl,
      projectId: alicesProject.id,
      projectOwnerSession: alice._internalSession,
      tokenStore: null,
    });
    expect((await asAlice.getProject()).id).toBe(alicesProject.id);
    const asBob = new StackAdminApp({ baseUrl, projectId: alicesProject.id, projectOwnerSession: bob._internalSession, tokenStore: null });
    await expect(asBob.getProject()).rejects.toBeInstanceOf(KnownErrors.AdminAccessTokenIsNotAdmin);
  });
});

describe("a project's nested settings, transfer and deletion", () => {
  it("writes nested config camelCase and reads it back the same way", async () => {
    const owner = await signedUpOwner();
    const project = await owner.createProject({ displayName: "Nested" });
    const edited = await project.update({
      config: {
        requireEmailVerification: true,
        domains: [{ domain: "https://shop.example.com", handlerPath: "/handler" }],
        oauthProviders: [{ id: "github", type: "standard", clientId: "id", clientSecret: "secret" }],
      },
    });
    expect(edited.config.domains).toEqual([{ domain: "https://shop.example.com", handlerPath: "/handler" }]);
    expect(edited.config.oauthProviders).toEqual([
      // The secret comes back masked (maskOAuthClientSecret in @latchkey/shared).
      { id: "github", type: "standard", clientId: "id", clientSecret: "********", providerConfigId: "github" },
    ]);
    expect(edited.config).not.toHaveProperty("requireEmailVerification");
  });

  it("lists what keeps the project out of production mode, as stored, until it is fixed; localhost only warns", async () => {
    const owner = await signedUpOwner();
    const project = await owner.createProject({
      displayName: "Going live",
      config: {
        domains: [
          { domain: "http://localhost:3000", handlerPath: "/handler" },
          { domain: "http://app.example.com", handlerPath: "/handler" },
        ],
      },
    });
    const fix = `/projects/${project.id}/domains`;
    const https = { message: "Trusted domains should be HTTPS: http://app.example.com", relativeFixUrl: `${fix}#trusted-domain-1` };
    expect(await project.getProductionModeErrors()).toEqual([https]);
    expect(await project.getProductionModeProblems()).toEqual({
      errors: [https],
      warnings: [
        {
          message: "Localhost is not allowed in production mode, turn off 'Allow localhost' in project settings",
          relativeFixUrl: `${fix}#allow-localhost`,
        },
        {
          message: "Localhost domains are not allowed to be trusted in production mode: http://localhost:3000",
          relativeFixUrl: `${fix}#trusted-domain-0`,
        },
      ],
    });
    const fixed = await project.update({
      config: { domains: [{ domain: "https://app.example.com", handlerPath: "/handler" }] },
    });
    expect(await fixed.getProductionModeErrors()).toEqual([]);
    expect((await fixed.getProductionModeProblems()).warnings).toHaveLength(1);
    expect((await fixed.update({ isProductionMode: true })).isProductionMode).toBe(true);
  });

  it("transfers only to the owner's own teams, and only their own projects; deletes a project", async () => {
    const alice = await signedUpOwner();
    const bob = await signedUpOwner();
    const project = await alice.createProject({ displayName: "Kept" });
    await expect(alice.transferProject(project.id, bob.selectedTeamId!)).rejects.toBeInstanceOf(KnownErrors.TeamMembershipNotFound);
    await expect(bob.transferProject(project.id, bob.selectedTeamId!)).rejects.toBeInstanceOf(KnownErrors.TeamMembershipNotFound);
    expect((await alice.listOwnedProjects()).map((p) => p.ownerTeamId)).toEqual([alice.selectedTeamId]);

    await project.delete();
    expect(await alice.listOwnedProjects()).toEqual([]);
  });
});

describe("StackAdminApp with the super secret admin key", () => {
  it("edits settings, lists and revokes internal API keys", async () => {
    const { project, ...keys } = await createSdkProject(baseUrl);
    const admin = new StackAdminApp({ baseUrl, projectId: project.id, superSecretAdminKey: keys.superSecretAdminKey, tokenStore: null });

    const edited = await (await admin.getProject()).update({ displayName: "Renamed", config: { signUpEnabled: false } });
    expect(edited.displayName).toBe("Renamed");
    expect(edited.config.signUpEnabled).toBe(false);
    const client = new StackClientApp({
      baseUrl,
      projectId: project.id,
      publishableClientKey: keys.publishableClientKey,
      tokenStore: "memory",
    });
    await expect(client.signUpWithCredential({ email: uniqueEmail(), password: PASSWORD, noRedirect: true })).rejects.toBeInstanceOf(
      KnownErrors.SignUpNotEnabled,
    );

    const listed = await admin.listInternalApiKeys();
    expect(listed).toHaveLength(1);
    expect(listed[0]!.publishableClientKey).toEqual({ lastFour: keys.publishableClientKey.slice(-4) });
    expect(listed[0]!.isValid()).toBe(true);
    await listed[0]!.revoke();
    // Read back with the owner's session: the admin key itself was in the revoked set.
    const [revoked] = await project.app.listInternalApiKeys();
    expect(revoked!.whyInvalid()).toBe("manually-revoked");
    // A revoked publishable key is refused.
    await expect(client.getProject()).rejects.toBeInstanceOf(KnownErrors.InvalidPublishableClientKey);
  });
});
