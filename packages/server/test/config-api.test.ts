/**
 * The config API: the rendered config, each level's
 * override as written, reset-keys and the branch's source; refusals as
 * plain-text 400s that change nothing; the project PATCH and the override API
 * reading back each other's writes; concurrent writers keeping both keys.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createProject, expectPlainError, expectSchemaError, patchProjectConfig, turnOnProductionMode, type Project } from "./fixtures.ts";
import { storedOverrides } from "./config-fixtures.ts";
import { createTestServer, expectKnownError, type Auth, type TestServer } from "./harness.ts";

let server: TestServer;
let project: Project;
beforeAll(async () => {
  server = await createTestServer();
  project = await createProject(server);
});
afterAll(() => server?.close());

async function rendered(p: Project = project): Promise<any> {
  const res = await server.request("/internal/config", { as: p.ownerAdmin });
  expect(res.status, res.text).toBe(200);
  return JSON.parse(res.body.config_string as string);
}

async function override(level: string, p: Project = project, as: Auth = p.ownerAdmin): Promise<any> {
  const res = await server.request(`/internal/config/override/${level}`, { as });
  expect(res.status, res.text).toBe(200);
  return JSON.parse(res.body.config_string as string);
}

function patch(level: string, value: unknown, p: Project = project, as: Auth = p.ownerAdmin) {
  const body = { config_override_string: typeof value === "string" ? value : JSON.stringify(value) };
  return server.request(`/internal/config/override/${level}`, { method: "PATCH", as, body });
}

async function patched(level: string, value: unknown, p: Project = project) {
  const res = await patch(level, value, p);
  expect(res.status, res.text).toBe(200);
  expect(res.body).toEqual({ success: true });
}

async function adminConfig(p: Project = project): Promise<any> {
  const res = await server.request("/internal/projects/current", { as: p.ownerAdmin });
  expect(res.status, res.text).toBe(200);
  return res.body.config;
}

describe("GET /internal/config", () => {
  it("renders defaults and what project creation writes", async () => {
    const p = await createProject(server);
    const config = await rendered(p);
    expect(config.auth.allowSignUp).toBe(true);
    expect(config.auth.password.allowSignIn).toBe(true);
    expect(config.domains).toEqual({ allowLocalhost: true, trustedDomains: {} });
    expect(config.rbac.defaultPermissions).toEqual({ teamCreator: { team_admin: true }, teamMember: { team_member: true }, signUp: {} });
    expect(config.apps.installed.authentication.enabled).toBe(true);
    expect(config.project.requirePublishableClientKey).toBe(false);
    expect(await override("branch", p)).toEqual({});
    expect(await override("project", p)).toEqual({});
  });

  it("is for admins only", async () => {
    for (const as of [project.server, project.client]) {
      const res = await server.request("/internal/config", { as });
      expect(res.status, res.text).not.toBe(200);
    }
  });
});

describe("PATCH /internal/config/override/{level}", () => {
  it("stores the keys as written and renders them; the project view reads them", async () => {
    const p = await createProject(server);
    await patched("environment", { "auth.allowSignUp": false, teams: { allowClientTeamCreation: true }, "apiKeys.enabled.user": true }, p);
    expect(await override("environment", p)).toMatchObject({
      "auth.allowSignUp": false,
      teams: { allowClientTeamCreation: true },
      "apiKeys.enabled.user": true,
    });
    const config = await rendered(p);
    expect(config.auth.allowSignUp).toBe(false);
    expect(config.teams.allowClientTeamCreation).toBe(true);
    expect(await adminConfig(p)).toMatchObject({ sign_up_enabled: false, client_team_creation_enabled: true, allow_user_api_keys: true });

    // The environment wins over the branch; its `teams` replaces every teams.* of the branch.
    await patched(
      "branch",
      { "auth.allowSignUp": true, "teams.createPersonalTeamOnSignUp": true, "users.allowClientUserDeletion": true },
      p,
    );
    expect((await rendered(p)).auth.allowSignUp).toBe(false);
    expect(await adminConfig(p)).toMatchObject({ create_team_on_sign_up: false, client_user_deletion_enabled: true });
    await patched("environment", { teams: null }, p);
    expect((await rendered(p)).teams).toEqual({ allowClientTeamCreation: false, createPersonalTeamOnSignUp: false });
    await patched("environment", { "teams.createPersonalTeamOnSignUp": true }, p);
    expect((await rendered(p)).teams).toEqual({ allowClientTeamCreation: false, createPersonalTeamOnSignUp: true });
  });

  it("drops a dotted key under a record entry never created, and still answers 200", async () => {
    const p = await createProject(server);
    await patched("environment", { "domains.trustedDomains.2.baseUrl": "https://example.com" }, p);
    expect((await rendered(p)).domains.trustedDomains).toEqual({});
  });

  it("refuses bad overrides with plain-text 400s, and changes nothing", async () => {
    const p = await createProject(server);
    const before = await storedOverrides(server, p.id);
    const cases: [string, unknown, string][] = [
      ["environment", "{ invalid json }", "Invalid config JSON"],
      [
        "environment",
        { nonExistentField: "x" },
        'The key "nonExistentField" is not valid (nested object not found in schema: "nonExistentField").',
      ],
      ["environment", { auth: { "oauth.providers": {} } }, "Key oauth.providers contains a dot, which is not allowed in config override."],
      [
        "branch",
        { "domains.allowLocalhost": true },
        'The key "domains.allowLocalhost" is not valid (nested object not found in schema: "domains").',
      ],
      [
        "environment",
        { "project.requirePublishableClientKey": true },
        'The key "project.requirePublishableClientKey" is not valid (nested object not found in schema: "project").',
      ],
      [
        "environment",
        { "auth.oauth.providers.invalid": { type: "nope" } },
        "auth.oauth.providers.invalid.type must be one of the following values: google, github, microsoft, spotify, facebook, discord, gitlab, bitbucket, linkedin, apple, x, twitch",
      ],
    ];
    for (const [level, value, message] of cases) {
      const res = await patch(level, value, p);
      expectPlainError(res, 400);
      expect(res.text).toBe(message);
    }
    const badFormat = await patch("environment", { "auth..allowSignUp": true }, p);
    expectPlainError(badFormat, 400, /^Invalid config format: /);
    expect(await storedOverrides(server, p.id)).toEqual(before);
  });

  it("refuses a level that does not exist", async () => {
    const res = await patch("galaxy", {});
    expectSchemaError(res, "PATCH", "/internal/config/override/galaxy", [
      "params.level must be one of the following values: project, branch, environment",
    ]);
  });

  it("lets server keys manage the branch level only", async () => {
    const p = await createProject(server);
    const res = await patch("branch", { "auth.allowSignUp": false }, p, p.server);
    expect(res.status, res.text).toBe(200);
    expect(await override("branch", p, p.server)).toEqual({ "auth.allowSignUp": false });
    for (const level of ["environment", "project"]) {
      const refused = await patch(level, {}, p, p.server);
      expectPlainError(refused, 403);
      expect(refused.text).toBe("Server access can only manage branch config overrides.");
      const read = await server.request(`/internal/config/override/${level}`, { as: p.server });
      expectPlainError(read, 403);
    }
    const client = await patch("branch", {}, p, p.client);
    expect(client.status).not.toBe(200);
  });

  it("keeps both keys when two writers patch different keys at once", async () => {
    const p = await createProject(server);
    const [a, b] = await Promise.all([
      patch("environment", { "auth.allowSignUp": false }, p),
      patch("environment", { "teams.allowClientTeamCreation": true }, p),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    const stored = await override("environment", p);
    expect(stored["auth.allowSignUp"]).toBe(false);
    expect(stored["teams.allowClientTeamCreation"]).toBe(true);
  });

  it("keeps both keys when the project PATCH and the override API write at once", async () => {
    const p = await createProject(server);
    const [a, b] = await Promise.all([
      server.request("/internal/projects/current", { method: "PATCH", as: p.ownerAdmin, body: { config: { magic_link_enabled: true } } }),
      patch("environment", { "users.allowClientUserDeletion": true }, p),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(await adminConfig(p)).toMatchObject({ magic_link_enabled: true, client_user_deletion_enabled: true });
  });

  it("the older PATCH /internal/config/override writes the environment level", async () => {
    const p = await createProject(server);
    const res = await server.request("/internal/config/override", {
      method: "PATCH",
      as: p.ownerAdmin,
      body: { config_override_string: JSON.stringify({ "onboarding.requireEmailVerification": true }) },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ success: true });
    expect((await override("environment", p))["onboarding.requireEmailVerification"]).toBe(true);
    const bad = await server.request("/internal/config/override", {
      method: "PATCH",
      as: p.ownerAdmin,
      body: { config_override_string: "[" },
    });
    expectPlainError(bad, 400);
    expect(bad.text).toBe("Invalid config JSON");
  });
});

describe("PUT /internal/config/override/{level}", () => {
  it("replaces the level; the branch level needs a source, which GET/DELETE /internal/config/source read and unlink", async () => {
    const p = await createProject(server);
    const source = await server.request("/internal/config/source", { as: p.ownerAdmin });
    expect(source.body).toEqual({ source: { type: "unlinked" } });

    const missing = await server.request("/internal/config/override/branch", {
      method: "PUT",
      as: p.ownerAdmin,
      body: { config_string: JSON.stringify({ "auth.allowSignUp": false }) },
    });
    expectPlainError(missing, 400);
    expect(missing.text).toBe("source is required for branch level config");

    const pushed = {
      type: "pushed-from-github",
      owner: "o",
      repo: "r",
      branch: "main",
      commit_hash: "abc",
      config_file_path: "stack.config.ts",
    };
    for (const value of [{ "teams.allowClientTeamCreation": true }, { "auth.allowSignUp": false }]) {
      const res = await server.request("/internal/config/override/branch", {
        method: "PUT",
        as: p.server,
        body: { config_string: JSON.stringify(value), source: pushed },
      });
      expect(res.status, res.text).toBe(200);
    }
    expect(await override("branch", p)).toEqual({ "auth.allowSignUp": false });
    expect((await server.request("/internal/config/source", { as: p.ownerAdmin })).body).toEqual({ source: pushed });

    // A PATCH keeps the source; unlinking keeps the values.
    await patched("branch", { "users.allowClientUserDeletion": true }, p);
    expect((await server.request("/internal/config/source", { as: p.ownerAdmin })).body).toEqual({ source: pushed });
    const unlinked = await server.request("/internal/config/source", { method: "DELETE", as: p.ownerAdmin });
    expect(unlinked.body).toEqual({ success: true });
    expect((await server.request("/internal/config/source", { as: p.ownerAdmin })).body).toEqual({ source: { type: "unlinked" } });
    expect(await override("branch", p)).toEqual({ "auth.allowSignUp": false, "users.allowClientUserDeletion": true });
  });

  it("replaces the environment level without a source, renaming older keys", async () => {
    const p = await createProject(server);
    const res = await server.request("/internal/config/override/environment", {
      method: "PUT",
      as: p.ownerAdmin,
      body: { config_string: JSON.stringify({ "emails.theme": "09ced0c6-bd94-4a7d-9621-fd31fe6ac229" }) },
    });
    expect(res.status, res.text).toBe(200);
    expect(await override("environment", p)).toEqual({ "emails.selectedThemeId": "09ced0c6-bd94-4a7d-9621-fd31fe6ac229" });
    expect((await adminConfig(p)).email_theme).toBe("09ced0c6-bd94-4a7d-9621-fd31fe6ac229");
    // Creation's writes are gone with the rest: absent keys mean their defaults.
    expect((await rendered(p)).auth.password.allowSignIn).toBe(false);
  });
});

describe("POST /internal/config/override/{level}/reset-keys", () => {
  it("removes the keys and what is under them, also inside stored objects", async () => {
    const p = await createProject(server);
    await patched(
      "environment",
      { teams: { allowClientTeamCreation: true, createPersonalTeamOnSignUp: true }, "auth.allowSignUp": false },
      p,
    );
    const res = await server.request("/internal/config/override/environment/reset-keys", {
      method: "POST",
      as: p.ownerAdmin,
      body: { keys: ["teams.allowClientTeamCreation", "auth"] },
    });
    expect(res.status, res.text).toBe(200);
    const stored = await override("environment", p);
    expect(stored.teams).toEqual({ createPersonalTeamOnSignUp: true });
    expect(Object.keys(stored).filter((k) => k.startsWith("auth"))).toEqual([]);
    expect((await adminConfig(p)).sign_up_enabled).toBe(true);
  });

  it("is not offered for the project level", async () => {
    const res = await server.request("/internal/config/override/project/reset-keys", {
      method: "POST",
      as: project.ownerAdmin,
      body: { keys: [] },
    });
    expectKnownError(res, "SCHEMA_ERROR", 400);
  });
});

describe("the project PATCH and the override API", () => {
  it("agree: fields written one way read back the other way", async () => {
    const p = await createProject(server);
    await patchProjectConfig(server, p, {
      sign_up_enabled: false,
      allow_user_api_keys: true,
      domains: [{ domain: "https://app.example.com", handler_path: "/auth" }],
      oauth_providers: [{ id: "github", type: "standard", client_id: "gh", client_secret: "gh-secret-abcdefgh-1234" }],
      team_member_default_permissions: [],
    });
    const config = await rendered(p);
    expect(config.auth.allowSignUp).toBe(false);
    expect(config.apiKeys.enabled.user).toBe(true);
    expect(Object.values(config.domains.trustedDomains)).toEqual([{ baseUrl: "https://app.example.com", handlerPath: "/auth" }]);
    expect(config.auth.oauth.providers.github).toMatchObject({
      type: "github",
      isShared: false,
      clientId: "gh",
      clientSecret: "********1234",
      allowSignIn: true,
    });
    expect(config.rbac.defaultPermissions.teamMember).toEqual({});

    await patched(
      "environment",
      {
        "auth.allowSignUp": true,
        "domains.trustedDomains": {
          a: { baseUrl: "https://one.example.com" },
          b: { baseUrl: "https://two.example.com", handlerPath: "/h" },
        },
        "auth.oauth.providers.google": { type: "google", isShared: true, allowSignIn: true },
        "emails.server": {
          isShared: false,
          host: "smtp.example.com",
          port: 587,
          username: "u",
          password: "smtp-password-9876",
          senderName: "S",
          senderEmail: "s@example.com",
        },
      },
      p,
    );
    const view = await adminConfig(p);
    expect(view.sign_up_enabled).toBe(true);
    expect(view.domains).toEqual([
      { domain: "https://one.example.com", handler_path: "/handler" },
      { domain: "https://two.example.com", handler_path: "/h" },
    ]);
    expect(view.oauth_providers.map((o: { id: string }) => o.id)).toEqual(["github", "google"]);
    expect(view.email_config).toMatchObject({ type: "standard", host: "smtp.example.com", port: 587, sender_email: "s@example.com" });
  });

  it("agree on an own e-mail server written key by key: in use once it has a host and a sender", async () => {
    const p = await createProject(server);
    await patched("environment", { "emails.server.isShared": false, "emails.server.host": "smtp.example.com" }, p);
    expect((await adminConfig(p)).email_config).toEqual({ type: "shared" });
    await patched("environment", { "emails.server.senderName": "Shop", "emails.server.senderEmail": "mail@example.com" }, p);
    expect((await adminConfig(p)).email_config).toMatchObject({
      type: "standard",
      host: "smtp.example.com",
      sender_email: "mail@example.com",
    });
  });

  it("agree on production mode: the override API refuses what the project PATCH refuses, and changes nothing", async () => {
    const p = await createProject(server);
    await turnOnProductionMode(server, p);
    // Localhost is only warned about in production, here as through the project PATCH.
    await patched("environment", { "domains.allowLocalhost": true }, p);
    const before = await override("environment", p);
    const http = { "domains.trustedDomains.a": { baseUrl: "http://app.example.com" } };
    expectPlainError(await patch("environment", http, p), 400, /Trusted domains should be HTTPS: http:\/\/app\.example\.com/);
    expect(await override("environment", p)).toEqual(before);
    await patched("environment", { "domains.trustedDomains.a": { baseUrl: "https://app.example.com" } }, p);
    expect((await adminConfig(p)).domains).toEqual([{ domain: "https://app.example.com", handler_path: "/handler" }]);
  });

  it("keep secrets sealed at rest and masked in answers; the mask sent back keeps the secret", async () => {
    const p = await createProject(server);
    const sender = { senderName: "Shop", senderEmail: "mail@example.com" };
    await patched(
      "environment",
      { "emails.server": { ...sender, isShared: false, host: "smtp.example.com", port: 587, password: "smtp-password-9876" } },
      p,
    );
    expect(JSON.stringify(await storedOverrides(server, p.id))).not.toContain("smtp-password");
    expect((await override("environment", p))["emails.server"].password).toBe("********9876");
    expect((await rendered(p)).emails.server.password).toBe("********9876");
    const project = await server.instance.services.projects.get(p.id);
    expect(project!.config.email_config).toMatchObject({ password: "smtp-password-9876" });

    await patched(
      "environment",
      { "emails.server": { ...sender, isShared: false, host: "smtp2.example.com", port: 587, password: "********9876" } },
      p,
    );
    expect((await server.instance.services.projects.get(p.id))!.config.email_config).toMatchObject({
      host: "smtp2.example.com",
      password: "smtp-password-9876",
    });
  });
});
