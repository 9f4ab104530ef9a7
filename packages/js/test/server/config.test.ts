/**
 * The config methods of an admin project against a real server: the rendered
 * config, updateConfig (the environment level), the pushed (branch) config
 * and its source, each level's override read, replaced and reset; refusals
 * as the SDK's errors, with nothing changed; secrets masked, and kept when
 * the mask is written back.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HttpError, KnownErrors, StackAdminApp, type AdminProject, type ConfigLevel } from "../../src/index.ts";
import { createSdkProject } from "./fixtures.ts";
import { nextSnapshot, startServer, type TestServer } from "./support.ts";

let server: TestServer;
let baseUrl: string;

beforeAll(async () => {
  ({ server, baseUrl } = await startServer());
});
afterAll(() => server?.close());

/** A new project, administered with its admin key (the owner's session is tested by the dashboard). */
async function adminProject(): Promise<{ project: AdminProject; freshApp: () => StackAdminApp }> {
  const made = await createSdkProject(baseUrl);
  // Each a new app, so a read through it is never answered from another's cache.
  const freshApp = () =>
    new StackAdminApp({
      baseUrl,
      projectId: made.id,
      publishableClientKey: made.publishableClientKey,
      superSecretAdminKey: made.superSecretAdminKey,
      tokenStore: null,
    });
  return { project: await freshApp().getProject(), freshApp };
}

/** The plain-text 400 a refused override gets, as the SDK throws it. */
async function refusal(write: Promise<void>): Promise<HttpError> {
  const error = await write.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(HttpError);
  expect((error as HttpError).status).toBe(400);
  return error as HttpError;
}

async function storedOverrides(project: AdminProject) {
  const levels: ConfigLevel[] = ["project", "branch", "environment"];
  return Promise.all(levels.map((level) => project.getConfigOverride(level)));
}

describe("getConfig and updateConfig", () => {
  it("renders the defaults; updateConfig writes dotted keys to the environment, as written, and every view agrees", async () => {
    const { project, freshApp } = await adminProject();
    const config = await project.getConfig();
    expect(config.auth.allowSignUp).toBe(true);
    expect(config.auth.password.allowSignIn).toBe(true);
    expect(config.teams).toEqual({ allowClientTeamCreation: false, createPersonalTeamOnSignUp: false });

    await project.updateConfig({ "auth.allowSignUp": false, teams: { allowClientTeamCreation: true } });
    await project.updateConfig({ "users.allowClientUserDeletion": true });
    const after = await project.getConfig();
    expect(after.auth.allowSignUp).toBe(false);
    expect(after.teams).toEqual({ allowClientTeamCreation: true, createPersonalTeamOnSignUp: false });
    expect(after.users.allowClientUserDeletion).toBe(true);
    expect(await project.getConfigOverride("environment")).toMatchObject({
      "auth.allowSignUp": false,
      teams: { allowClientTeamCreation: true },
      "users.allowClientUserDeletion": true,
    });
    expect(await project.getConfigOverride("branch")).toEqual({});
    // The older project view reads the same keys.
    const reread = await freshApp().getProject();
    expect(reread.config).toMatchObject({ signUpEnabled: false, clientTeamCreationEnabled: true, clientUserDeletionEnabled: true });
  });

  it("a write through the SDK reaches whoever shows the cached config", async () => {
    const { project } = await adminProject();
    const entry = project._configEntry();
    expect((await entry.get()).auth.passkey.allowSignIn).toBe(false);
    const shown = nextSnapshot(entry, (s) => s.status === "ok" && s.value.auth.passkey.allowSignIn);
    await project.updateConfig({ "auth.passkey.allowSignIn": true });
    expect((await shown.seen).auth.passkey.allowSignIn).toBe(true);
    shown.unsubscribe();
    // The older PATCH writes the same keys, and the cached config follows it too.
    const back = nextSnapshot(entry, (s) => s.status === "ok" && !s.value.auth.passkey.allowSignIn);
    await project.update({ config: { passkeyEnabled: false } });
    expect((await back.seen).auth.passkey.allowSignIn).toBe(false);
    back.unsubscribe();
  });

  it("refuses a key the schema does not have with the server's words, and changes nothing", async () => {
    const { project } = await adminProject();
    const before = await storedOverrides(project);
    const error = await refusal(project.updateConfig({ "nonExistentField.value": true }));
    expect(error.body).toBe('The key "nonExistentField.value" is not valid (nested object not found in schema: "nonExistentField").');
    const badProvider = await refusal(project.updateConfig({ "auth.oauth.providers.mine": { type: "not-a-provider" } }));
    expect(badProvider.body).toMatch(/^auth\.oauth\.providers\.mine\.type must be one of the following values: google, github/);
    // An environment-only key at the branch level.
    const branchOnly = await refusal(project.updatePushedConfig({ "domains.allowLocalhost": false }));
    expect(branchOnly.body).toBe('The key "domains.allowLocalhost" is not valid (nested object not found in schema: "domains").');
    expect(await storedOverrides(project)).toEqual(before);
  });

  it("refuses a level that does not exist as SCHEMA_ERROR, the catalogue's known error", async () => {
    const { project } = await adminProject();
    for (const call of [
      () => project.getConfigOverride("galaxy" as ConfigLevel),
      () => project.replaceConfigOverride("galaxy" as ConfigLevel, {}),
    ]) {
      const error = await call().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(KnownErrors.SchemaError);
      expect((error as Error).message).toContain("params.level must be one of the following values: project, branch, environment");
    }
    // Reset-keys knows the branch and environment levels only.
    const reset = await project.resetConfigOverrideKeys("project" as "branch", ["project"]).catch((e: unknown) => e);
    expect(reset).toBeInstanceOf(KnownErrors.SchemaError);
    expect((reset as Error).message).toContain("params.level must be one of the following values: branch, environment");
  });
});

describe("the pushed (branch) config", () => {
  it("pushConfig replaces the branch and its source; updateConfig still wins; reset-keys lets the branch show", async () => {
    const { project } = await adminProject();
    expect(await project.getPushedConfigSource()).toEqual({ type: "unlinked" });
    const source = {
      type: "pushed-from-github",
      owner: "acme",
      repo: "app",
      branch: "main",
      commitHash: "abc123",
      configFilePath: "latchkey.config.ts",
    } as const;
    await project.pushConfig({ "teams.allowClientTeamCreation": true, "teams.createPersonalTeamOnSignUp": true }, { source });
    expect(await project.getPushedConfigSource()).toEqual(source);
    expect((await project.getConfig()).teams).toEqual({ allowClientTeamCreation: true, createPersonalTeamOnSignUp: true });

    await project.updateConfig({ "teams.allowClientTeamCreation": false });
    expect((await project.getConfig()).teams.allowClientTeamCreation).toBe(false);
    await project.resetConfigOverrideKeys("environment", ["teams.allowClientTeamCreation"]);
    expect((await project.getConfig()).teams.allowClientTeamCreation).toBe(true);

    // A second push replaces the first whole; updatePushedConfig writes over it.
    await project.pushConfig({ "auth.passkey.allowSignIn": true }, { source: { type: "pushed-from-unknown" } });
    await project.updatePushedConfig({ "auth.otp.allowSignIn": true });
    expect(await project.getConfigOverride("branch")).toEqual({ "auth.passkey.allowSignIn": true, "auth.otp.allowSignIn": true });
    expect((await project.getConfig()).teams.createPersonalTeamOnSignUp).toBe(false);
    expect(await project.getPushedConfigSource()).toEqual({ type: "pushed-from-unknown" });

    await project.unlinkPushedConfigSource();
    expect(await project.getPushedConfigSource()).toEqual({ type: "unlinked" });
    expect((await project.getConfig()).auth.passkey.allowSignIn).toBe(true);
  });

  it("replaceConfigOverride keeps the branch's source; resetConfigOverrideKeys of a parent removes its children", async () => {
    const { project } = await adminProject();
    await project.pushConfig({ "auth.otp.allowSignIn": true }, { source: { type: "pushed-from-unknown" } });
    await project.replaceConfigOverride("branch", { "teams.createPersonalTeamOnSignUp": true });
    expect(await project.getConfigOverride("branch")).toEqual({ "teams.createPersonalTeamOnSignUp": true });
    expect(await project.getPushedConfigSource()).toEqual({ type: "pushed-from-unknown" });

    await project.updateConfig({ "teams.allowClientTeamCreation": true, "users.allowClientUserDeletion": true });
    await project.resetConfigOverrideKeys("environment", ["teams", "never.written"]);
    const environment = await project.getConfigOverride("environment");
    expect(environment["teams.allowClientTeamCreation"]).toBeUndefined();
    expect(environment["users.allowClientUserDeletion"]).toBe(true);
  });
});

describe("the project and environment levels", () => {
  it("replaceConfigOverride replaces a level whole; the project level holds the project keys", async () => {
    const { project } = await adminProject();
    expect(await project.getConfigOverride("project")).toEqual({});
    await project.replaceConfigOverride("project", { "project.requirePublishableClientKey": true });
    expect(await project.getConfigOverride("project")).toEqual({ "project.requirePublishableClientKey": true });
    expect((await project.getConfig()).project.requirePublishableClientKey).toBe(true);
    const refused = await refusal(project.replaceConfigOverride("project", { "auth.allowSignUp": false }));
    expect(refused.body).toBe('The key "auth.allowSignUp" is not valid (nested object not found in schema: "auth").');

    await project.updateConfig({ "auth.allowSignUp": false });
    await project.replaceConfigOverride("environment", { "auth.otp.allowSignIn": true });
    expect(await project.getConfigOverride("environment")).toEqual({ "auth.otp.allowSignIn": true });
    const config = await project.getConfig();
    expect(config.auth.allowSignUp).toBe(true);
    // Everything project creation wrote to the environment went with the replacement.
    expect(config.auth.password.allowSignIn).toBe(false);
  });

  it("shows secrets masked, and keeps a stored secret when its mask is written back", async () => {
    const { project, freshApp } = await adminProject();
    await project.updateConfig({
      "auth.oauth.providers.github": {
        type: "github",
        isShared: false,
        clientId: "gh-id",
        clientSecret: "gh-secret-abcd1234",
        allowSignIn: true,
        allowConnectedAccounts: true,
      },
      "emails.server": {
        isShared: false,
        host: "smtp.example.com",
        port: 587,
        username: "u",
        password: "smtp-password-9876",
        senderName: "Acme",
        senderEmail: "noreply@example.com",
      },
    });
    const environment = await project.getConfigOverride("environment");
    expect(JSON.stringify(environment)).not.toMatch(/gh-secret|smtp-password/);
    const config = await project.getConfig();
    expect(config.auth.oauth.providers.github?.clientSecret).toBe("********1234");
    expect(config.emails.server.password).toBe("********9876");

    // The whole override written back as read: the masks keep the secrets.
    await project.replaceConfigOverride("environment", environment);
    const kept = await project.getConfig();
    expect(kept.auth.oauth.providers.github?.clientSecret).toBe("********1234");
    expect(kept.emails.server.password).toBe("********9876");
    // The older view opens the SMTP password (for sending): it is the one first written.
    const legacy = (await freshApp().getProject()).config.emailConfig;
    expect(legacy).toMatchObject({ type: "standard", password: "smtp-password-9876" });
  });
});
