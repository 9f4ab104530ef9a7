/**
 * Projects: the client view, the admin view and config (see @latchkey/shared
 * api/projects.ts), production mode, the internal project, owner routes and
 * transfer.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { teamMembers, teams } from "../src/db/schema/index.ts";
import {
  createProject,
  expectPlainError,
  expectSchemaError,
  expectSchemaErrorIncluding,
  signUpOwner,
  signUpUser,
  type Owner,
  type Project,
  UNKNOWN_UUID,
} from "./fixtures.ts";
import { configFromEnv } from "../src/config.ts";
import { createTestServer, expectKnownError, type Auth, type TestServer } from "./harness.ts";
import { writeOverride } from "./config-fixtures.ts";

const CLIENT_CONFIG_KEYS = [
  "allow_team_api_keys",
  "allow_user_api_keys",
  "client_team_creation_enabled",
  "client_user_deletion_enabled",
  "credential_enabled",
  "domains",
  "enabled_oauth_providers",
  "magic_link_enabled",
  "passkey_enabled",
  "sign_up_enabled",
];
const ADMIN_PROJECT_KEYS = [
  "config",
  "created_at_millis",
  "description",
  "display_name",
  "id",
  "is_production_mode",
  "logo_dark_mode_url",
  "logo_full_dark_mode_url",
  "logo_full_url",
  "logo_url",
  "onboarding_status",
  "owner_team_id",
];
const ADMIN_CONFIG_KEYS = [
  "allow_localhost",
  "allow_team_api_keys",
  "allow_user_api_keys",
  "client_team_creation_enabled",
  "client_user_deletion_enabled",
  "create_team_on_sign_up",
  "credential_enabled",
  "domains",
  "email_config",
  "email_theme",
  "enabled_oauth_providers",
  "magic_link_enabled",
  "oauth_account_merge_strategy",
  "oauth_providers",
  "passkey_enabled",
  "sign_up_enabled",
  "team_creator_default_permissions",
  "team_member_default_permissions",
  "user_default_permissions",
];
const DEFAULT_THEME = "1df07ae6-abf3-4a40-83a5-a1a2cbe336ac";

let server: TestServer;

beforeAll(async () => {
  server = await createTestServer();
});
afterAll(() => server.close());

const ownerClient = (owner: Owner): Auth => ({ ...server.internal.client, accessToken: owner.accessToken });
const patchCurrent = (as: Auth, body: unknown) => server.request("/internal/projects/current", { method: "PATCH", as, body });
async function getCurrent(as: Auth) {
  const res = await server.request("/internal/projects/current", { as });
  expect(res.status, res.text).toBe(200);
  return res.body;
}

describe("GET /projects/current (client view)", () => {
  it("has exactly the client view's fields, for every access type", async () => {
    const project = await createProject(server);
    const res = await server.request("/projects/current", { as: project.client });
    expect(res.status, res.text).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(["config", "display_name", "id", "logo_full_url", "logo_url"]);
    expect(Object.keys(res.body.config).sort()).toEqual(CLIENT_CONFIG_KEYS);
    expect(res.body).toEqual({
      config: {
        allow_team_api_keys: false,
        allow_user_api_keys: false,
        client_team_creation_enabled: false,
        client_user_deletion_enabled: false,
        credential_enabled: true,
        domains: [],
        enabled_oauth_providers: [],
        magic_link_enabled: false,
        passkey_enabled: false,
        sign_up_enabled: true,
      },
      display_name: "Test project",
      id: project.id,
      logo_full_url: null,
      logo_url: null,
    });
    for (const as of [project.server, project.admin, project.ownerAdmin, { ...project.client, publishableClientKey: undefined }]) {
      const other = await server.request("/projects/current", { as });
      expect(other.status, other.text).toBe(200);
      expect(other.body).toEqual(res.body);
    }
    const user = await signUpUser(server, project);
    expect((await server.request("/projects/current", { as: user.as })).body).toEqual(res.body);
  });

  it("unknown project → CURRENT_PROJECT_NOT_FOUND; no access type → ACCESS_TYPE_REQUIRED", async () => {
    const res = await server.request("/projects/current", { as: { type: "client", projectId: UNKNOWN_UUID } });
    expectKnownError(res, "CURRENT_PROJECT_NOT_FOUND", 400);
    expect(res.body.details).toEqual({ project_id: UNKNOWN_UUID });
    expectKnownError(await server.request("/projects/current"), "ACCESS_TYPE_REQUIRED", 400);
  });
});

describe("OAuth providers in the client view", () => {
  const INTERNAL_PROVIDERS = [{ id: "github" }, { id: "google" }, { id: "microsoft" }, { id: "spotify" }];
  const clientProviders = async (on: TestServer, as: Auth) => {
    const res = await on.request("/projects/current", { as });
    expect(res.status, res.text).toBe(200);
    return res.body.config.enabled_oauth_providers;
  };

  it("leave out shared providers the operator has no keys for; the admin view and the stored config keep them", async () => {
    // A fresh install: the internal project lists four shared providers and this server has no keys for any, so
    // signing in with them answers OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED (oauth-authorize.test.ts): no button for them.
    expect(server.config.sharedOAuthCredentials).toEqual({});
    expect(await clientProviders(server, server.internal.client)).toEqual([]);
    expect((await getCurrent(server.internal.admin)).config.enabled_oauth_providers).toEqual(INTERNAL_PROVIDERS);
  });

  it("list a shared provider once the operator's environment has keys for it (MOCK here), and standard ones always", async () => {
    const { sharedOAuthCredentials, oauthMockUrl } = configFromEnv({
      STACK_SERVER_SECRET: "x".repeat(32),
      STACK_OAUTH_MOCK_URL: "http://127.0.0.1:8114",
      STACK_GITHUB_CLIENT_ID: "MOCK",
      STACK_GITHUB_CLIENT_SECRET: "MOCK",
      STACK_SPOTIFY_CLIENT_ID: "spotify-app",
      STACK_SPOTIFY_CLIENT_SECRET: "spotify-secret",
    });
    const operator = await createTestServer({ sharedOAuthCredentials, oauthMockUrl });
    try {
      expect(await clientProviders(operator, operator.internal.client)).toEqual([{ id: "github" }, { id: "spotify" }]);
      const project = await createProject(operator);
      const patched = await operator.request("/internal/projects/current", {
        method: "PATCH",
        as: project.admin,
        body: {
          config: {
            oauth_providers: [
              { id: "google", type: "shared" },
              { id: "github", type: "shared" },
              { id: "microsoft", type: "standard", client_id: "ms-id", client_secret: "ms-secret" },
            ],
          },
        },
      });
      expect(patched.status, patched.text).toBe(200);
      expect(await clientProviders(operator, project.client)).toEqual([{ id: "github" }, { id: "microsoft" }]);
    } finally {
      await operator.close();
    }
  });
});

describe("admin /internal/projects/current", () => {
  it("GET: the admin view with new-project defaults, by key and by owner token", async () => {
    const project = await createProject(server);
    const body = await getCurrent(project.admin);
    expect(Object.keys(body).sort()).toEqual(ADMIN_PROJECT_KEYS);
    expect(Object.keys(body.config).sort()).toEqual(ADMIN_CONFIG_KEYS);
    expect(body).toMatchObject({
      id: project.id,
      display_name: "Test project",
      description: "",
      is_production_mode: false,
      logo_url: null,
      logo_full_url: null,
      logo_dark_mode_url: null,
      logo_full_dark_mode_url: null,
      onboarding_status: "completed",
      owner_team_id: project.owner.teamId,
    });
    expect(body.config).toEqual({
      allow_localhost: true,
      allow_team_api_keys: false,
      allow_user_api_keys: false,
      client_team_creation_enabled: false,
      client_user_deletion_enabled: false,
      create_team_on_sign_up: false,
      credential_enabled: true,
      domains: [],
      email_config: { type: "shared" },
      email_theme: DEFAULT_THEME,
      enabled_oauth_providers: [],
      magic_link_enabled: false,
      oauth_account_merge_strategy: "link_method",
      oauth_providers: [],
      passkey_enabled: false,
      sign_up_enabled: true,
      team_creator_default_permissions: [{ id: "team_admin" }],
      team_member_default_permissions: [{ id: "team_member" }],
      user_default_permissions: [],
    });
    expect(body.created_at_millis).toBeGreaterThan(Date.now() - 120_000);
    expect(await getCurrent(project.ownerAdmin)).toEqual(body);
    // Client and server access may not read it.
    expectKnownError(await server.request("/internal/projects/current", { as: project.server }), "INSUFFICIENT_ACCESS_TYPE", 401);
    expectKnownError(await server.request("/internal/projects/current", { as: project.client }), "INSUFFICIENT_ACCESS_TYPE", 401);
    // A new project needs no publishable key and no verified e-mail.
    const noKey = await server.request("/auth/password/sign-up", {
      method: "POST",
      as: { type: "client", projectId: project.id },
      body: { email: `nokey-${Date.now()}@example.com`, password: "a long enough password" },
    });
    expect(noKey.status, noKey.text).toBe(200);
    const me = await server.request("/users/me", { as: { type: "client", projectId: project.id, accessToken: noKey.body.access_token } });
    expect(me.body.is_restricted).toBe(false);
  });

  it("PATCH: every config field is patchable and returned; partial patches keep the rest", async () => {
    const project = await createProject(server);
    const theme = "7f0c4a8e-6a53-4d3c-9c77-0f8f3e0d1a2b";
    const config = {
      allow_localhost: false,
      sign_up_enabled: false,
      credential_enabled: false,
      magic_link_enabled: true,
      passkey_enabled: true,
      client_team_creation_enabled: true,
      client_user_deletion_enabled: true,
      allow_user_api_keys: true,
      allow_team_api_keys: true,
      create_team_on_sign_up: true,
      oauth_account_merge_strategy: "raise_error",
      oauth_providers: [
        { id: "google", type: "shared" },
        { id: "microsoft", type: "standard", client_id: "ms-id", client_secret: "ms-secret", microsoft_tenant_id: "tenant-1" },
        { id: "facebook", type: "standard", client_id: "fb-id", client_secret: "fb-secret", facebook_config_id: "fb-config" },
        { id: "github", type: "standard", client_id: "gh-id", client_secret: "gh-secret" },
      ],
      email_config: {
        type: "standard",
        host: "smtp.example.com",
        port: 587,
        username: "mailer",
        password: "mail-secret",
        sender_name: "Example",
        sender_email: "noreply@example.com",
      },
      email_theme: theme,
      domains: [
        { domain: "https://app.example.com", handler_path: "/handler" },
        { domain: "https://*.example.org", handler_path: "/auth" },
      ],
      team_creator_default_permissions: [{ id: "$update_team" }, { id: "team_admin" }],
      team_member_default_permissions: [{ id: "$read_members" }],
      user_default_permissions: [{ id: "project:reader" }],
    };
    const res = await patchCurrent(project.ownerAdmin, {
      display_name: "Renamed",
      description: "A description",
      logo_url: "https://example.com/logo.png",
      logo_full_url: "https://example.com/logo-full.png",
      logo_dark_mode_url: "https://example.com/logo-dark.png",
      logo_full_dark_mode_url: "https://example.com/logo-full-dark.png",
      config,
    });
    expect(res.status, res.text).toBe(200);
    // Secrets are shown masked (maskOAuthClientSecret); these are shorter than twelve characters.
    const expectedConfig = {
      ...config,
      oauth_providers: [
        {
          id: "facebook",
          type: "standard",
          client_id: "fb-id",
          client_secret: "********",
          facebook_config_id: "fb-config",
          provider_config_id: "facebook",
        },
        { id: "github", type: "standard", client_id: "gh-id", client_secret: "********", provider_config_id: "github" },
        { id: "google", type: "shared", provider_config_id: "google" },
        {
          id: "microsoft",
          type: "standard",
          client_id: "ms-id",
          client_secret: "********",
          microsoft_tenant_id: "tenant-1",
          provider_config_id: "microsoft",
        },
      ],
      enabled_oauth_providers: [{ id: "facebook" }, { id: "github" }, { id: "google" }, { id: "microsoft" }],
    };
    expect(res.body).toMatchObject({
      display_name: "Renamed",
      description: "A description",
      logo_url: "https://example.com/logo.png",
      logo_full_url: "https://example.com/logo-full.png",
      logo_dark_mode_url: "https://example.com/logo-dark.png",
      logo_full_dark_mode_url: "https://example.com/logo-full-dark.png",
    });
    expect(res.body.config).toEqual(expectedConfig);
    expect(await getCurrent(project.admin)).toEqual(res.body);

    // The client view follows, less the shared provider: this server has no shared keys (see "OAuth providers in the client view").
    const client = await server.request("/projects/current", { as: project.client });
    expect(client.body).toEqual({
      config: {
        allow_team_api_keys: true,
        allow_user_api_keys: true,
        client_team_creation_enabled: true,
        client_user_deletion_enabled: true,
        credential_enabled: false,
        domains: config.domains,
        enabled_oauth_providers: [{ id: "facebook" }, { id: "github" }, { id: "microsoft" }],
        magic_link_enabled: true,
        passkey_enabled: true,
        sign_up_enabled: false,
      },
      display_name: "Renamed",
      id: project.id,
      logo_full_url: "https://example.com/logo-full.png",
      logo_url: "https://example.com/logo.png",
    });

    // Partial: only what is named changes.
    const partial = await patchCurrent(project.admin, { config: { sign_up_enabled: true, email_config: { type: "shared" } } });
    expect(partial.status, partial.text).toBe(200);
    expect(partial.body.config).toEqual({ ...expectedConfig, sign_up_enabled: true, email_config: { type: "shared" } });
    expect(partial.body.display_name).toBe("Renamed");
    // Nullable fields clear with null; require_email_verification is accepted.
    const cleared = await patchCurrent(project.admin, { logo_url: null, description: null, config: { require_email_verification: false } });
    expect(cleared.status, cleared.text).toBe(200);
    expect(cleared.body.logo_url).toBeNull();
    expect(cleared.body.description).toBe("");
    expect(cleared.body.config).not.toHaveProperty("require_email_verification");
  });

  it("rejects invalid domain patterns and other bad config with SCHEMA_ERROR, changing nothing", async () => {
    const project = await createProject(server);
    await patchCurrent(project.admin, { config: { domains: [{ domain: "https://ok.example.com", handler_path: "/handler" }] } });
    const before = await getCurrent(project.admin);
    const badDomains = [
      "example.com",
      "ftp://example.com",
      "https://.example.com",
      "https://example.com.",
      "https://exa..mple.com",
      "https://example.com/path/*",
      "https://example.com?q=*",
      "https://us*er@example.com",
      "https://exa mple.com",
      "javascript://alert(1)",
      "",
    ];
    for (const domain of badDomains) {
      const res = await patchCurrent(project.admin, {
        display_name: "Should not stick",
        config: { domains: [{ domain, handler_path: "/handler" }] },
      });
      expectKnownError(res, "SCHEMA_ERROR", 400);
      expect(res.body.error, domain).toContain("body.config.domains[0].domain ");
    }
    expectSchemaErrorIncluding(
      await patchCurrent(project.admin, { config: { domains: [{ domain: "https://example.com", handler_path: "handler" }] } }),
      "body.config.domains[0].handler_path must start with '/'",
    );
    expectSchemaError(await patchCurrent(project.admin, { config: { sign_up_enabled: "yes" } }), "PATCH", "/internal/projects/current", [
      'body.config.sign_up_enabled must be a `boolean` type, but the final value was: `"yes"`.',
    ]);
    expectSchemaError(await patchCurrent(project.admin, { config: { unknown_flag: true } }), "PATCH", "/internal/projects/current", [
      "body.config contains unknown properties: unknown_flag",
    ]);
    expectSchemaErrorIncluding(
      await patchCurrent(project.admin, { config: { oauth_account_merge_strategy: "merge_everything" } }),
      "body.config.oauth_account_merge_strategy must be one of the following values: link_method, raise_error, allow_duplicates",
    );
    expectSchemaErrorIncluding(
      await patchCurrent(project.admin, { config: { oauth_providers: [{ id: "myspace", type: "shared" }] } }),
      "body.config.oauth_providers[0].id must be one of the following values: google, github, microsoft, spotify, facebook, discord, gitlab, bitbucket, linkedin, apple, x, twitch",
    );
    expect(await getCurrent(project.admin)).toEqual(before);

    // Valid patterns are accepted, wildcards in the host included.
    const ok = await patchCurrent(project.admin, {
      config: {
        domains: [
          { domain: "https://*.example.com", handler_path: "/handler" },
          { domain: "http://localhost:3000", handler_path: "/handler" },
          { domain: "https://example.com:8443/app", handler_path: "/auth/handler" },
        ],
      },
    });
    expect(ok.status, ok.text).toBe(200);
  });

  it("email_config: standard port outside 0-65535 is rejected; 0 and 65535 are fine", async () => {
    const project = await createProject(server);
    const email = (port: number) => ({
      type: "standard",
      host: "smtp.example.com",
      port,
      username: "u",
      password: "p",
      sender_name: "S",
      sender_email: "s@example.com",
    });
    const res = await patchCurrent(project.admin, { config: { email_config: email(70000) } });
    expectSchemaError(res, "PATCH", "/internal/projects/current", ["body.config.email_config.port must be less than or equal to 65535"]);
    expectSchemaErrorIncluding(
      await patchCurrent(project.admin, { config: { email_config: email(-1) } }),
      "body.config.email_config.port must be greater than or equal to 0",
    );
    expect((await getCurrent(project.admin)).config.email_config).toEqual({ type: "shared" });
    for (const port of [0, 65535]) {
      const ok = await patchCurrent(project.admin, { config: { email_config: email(port) } });
      expect(ok.status, ok.text).toBe(200);
      expect(ok.body.config.email_config.port).toBe(port);
    }
  });

  it("email_config: a sender address whose top-level domain has digits is taken; a malformed one is not", async () => {
    const project = await createProject(server);
    const email = (sender_email: string) => ({
      type: "standard",
      host: "smtp.example.com",
      port: 587,
      username: "u",
      password: "p",
      sender_name: "S",
      sender_email,
    });
    for (const sender of ["noreply@mail.example.co2", "noreply@test.x1y2"]) {
      const ok = await patchCurrent(project.admin, { config: { email_config: email(sender) } });
      expect(ok.status, ok.text).toBe(200);
      expect(ok.body.config.email_config.sender_email).toBe(sender);
    }
    expectSchemaError(
      await patchCurrent(project.admin, { config: { email_config: email("no reply@example.com") } }),
      "PATCH",
      "/internal/projects/current",
      ["body.config.email_config.sender_email must be a valid email"],
    );
  });

  describe("production mode", () => {
    // Each fix link names the setting itself: the localhost switch, or the domain at its index in the list.
    const fix = (id: string, anchor: string) => `/projects/${id}/domains#${anchor}`;
    const LOCALHOST = "Localhost is not allowed in production mode, turn off 'Allow localhost' in project settings";
    type Problem = [message: string, anchor: string];

    async function refused(project: Project, body: Record<string, unknown>, problems: Problem[]) {
      const before = await getCurrent(project.admin);
      const res = await patchCurrent(project.admin, { is_production_mode: true, ...body });
      expectPlainError(res, 400);
      for (const [message, anchor] of problems) expect(res.text).toContain(`${message} (fix it at ${fix(project.id, anchor)})`);
      // Only the expected problems are listed.
      expect(res.text.split("\n").filter((l) => l.startsWith("  - "))).toHaveLength(problems.length);
      expect(await getCurrent(project.admin)).toEqual(before);
    }

    it("localhost allowed or trusted is accepted, as the reference accepts it: listed as warnings only", async () => {
      const project = await createProject(server);
      const domains = ["https://localhost:3000", "https://app.example.com"].map((domain) => ({ domain, handler_path: "/handler" }));
      const res = await patchCurrent(project.admin, { is_production_mode: true, config: { domains } });
      expect(res.status, res.text).toBe(200);
      expect(res.body).toMatchObject({ is_production_mode: true, config: { allow_localhost: true } });
      const problems = await server.request("/internal/projects/current/production-mode-errors", { as: project.admin });
      expect(problems.body).toEqual({
        errors: [],
        warnings: [
          { message: LOCALHOST, relative_fix_url: fix(project.id, "allow-localhost") },
          {
            message: "Localhost domains are not allowed to be trusted in production mode: https://localhost:3000",
            relative_fix_url: fix(project.id, "trusted-domain-0"),
          },
        ],
      });
    });

    it("IP and http domains, each with its message", async () => {
      const project = await createProject(server);
      const cases: [string, string][] = [
        ["https://192.168.1.10", "Direct IPs are not valid for trusted domains in production mode: https://192.168.1.10"],
        ["http://example.com", "Trusted domains should be HTTPS: http://example.com"],
      ];
      for (const [domain, message] of cases) {
        await refused(project, { config: { allow_localhost: false, domains: [{ domain, handler_path: "/handler" }] } }, [
          [message, "trusted-domain-0"],
        ]);
      }
      // All at once, behind a valid domain and a localhost one (a warning only): each links to its own row.
      const domains = ["https://ok.example.com", "https://localhost", ...cases.map(([domain]) => domain)];
      await refused(
        project,
        { config: { domains: domains.map((domain) => ({ domain, handler_path: "/handler" })) } },
        cases.map(([, m], i): Problem => [m, `trusted-domain-${i + 2}`]),
      );
    });

    it("a stored domain that is not a URL", async () => {
      const project = await createProject(server);
      await writeOverride(server, project.id, "environment", {
        "domains.allowLocalhost": false,
        "domains.trustedDomains": { bad: { baseUrl: "https://exa mple.com", handlerPath: "/handler" } },
      });
      await refused(project, {}, [["Trusted domain is not a valid URL: https://exa mple.com", "trusted-domain-0"]]);
    });

    it("lists the same problems without trying, for admins only", async () => {
      const project = await createProject(server);
      const errors = async () => {
        const res = await server.request("/internal/projects/current/production-mode-errors", { as: project.admin });
        expect(res.status, res.text).toBe(200);
        return res.body.errors;
      };
      expect(await errors()).toEqual([]);
      await patchCurrent(project.admin, {
        config: {
          domains: [
            { domain: "https://example.com", handler_path: "/handler" },
            { domain: "http://example.com", handler_path: "/handler" },
          ],
        },
      });
      expect(await errors()).toEqual([
        { message: "Trusted domains should be HTTPS: http://example.com", relative_fix_url: fix(project.id, "trusted-domain-1") },
      ]);
      await patchCurrent(project.admin, {
        config: { allow_localhost: false, domains: [{ domain: "https://example.com", handler_path: "/handler" }] },
      });
      expect(await errors()).toEqual([]);
      const path = "/internal/projects/current/production-mode-errors";
      expectKnownError(await server.request(path, { as: project.server }), "INSUFFICIENT_ACCESS_TYPE", 401);
      expectKnownError(await server.request(path, { as: project.client }), "INSUFFICIENT_ACCESS_TYPE", 401);
      expectKnownError(await server.request(path), "ACCESS_TYPE_REQUIRED", 400);
    });

    it("succeeds once fixed; later changes must keep it valid", async () => {
      const project = await createProject(server);
      const res = await patchCurrent(project.admin, {
        is_production_mode: true,
        config: { allow_localhost: false, domains: [{ domain: "https://app.example.com", handler_path: "/handler" }] },
      });
      expect(res.status, res.text).toBe(200);
      expect(res.body.is_production_mode).toBe(true);
      expect((await getCurrent(project.admin)).is_production_mode).toBe(true);
      const localhostOn = await patchCurrent(project.admin, { config: { allow_localhost: true } });
      expect(localhostOn.status, localhostOn.text).toBe(200);
      await refused(project, { config: { domains: [{ domain: "http://app.example.com", handler_path: "/handler" }] } }, [
        ["Trusted domains should be HTTPS: http://app.example.com", "trusted-domain-0"],
      ]);
      const off = await patchCurrent(project.admin, { is_production_mode: false, config: { allow_localhost: true } });
      expect(off.status, off.text).toBe(200);
      expect(off.body.is_production_mode).toBe(false);
    });

    it("creating a project in production mode is checked too", async () => {
      const owner = await signUpOwner(server);
      const http = [{ domain: "http://app.example.com", handler_path: "/handler" }];
      const res = await server.request("/internal/projects", {
        method: "POST",
        as: ownerClient(owner),
        body: { display_name: "Prod", owner_team_id: owner.teamId, is_production_mode: true, config: { domains: http } },
      });
      expectPlainError(res, 400);
      expect(res.text).toContain("Trusted domains should be HTTPS: http://app.example.com");
      expect((await server.request("/internal/projects", { as: ownerClient(owner) })).body.items).toEqual([]);
      const ok = await server.request("/internal/projects", {
        method: "POST",
        as: ownerClient(owner),
        body: { display_name: "Prod", owner_team_id: owner.teamId, is_production_mode: true },
      });
      expect(ok.status, ok.text).toBe(201);
      expect(ok.body.is_production_mode).toBe(true);
    });
  });

  it("DELETE: the project is gone and its keys stop working", async () => {
    const project = await createProject(server);
    const user = await signUpUser(server, project);
    const res = await server.request("/internal/projects/current", { method: "DELETE", as: project.admin });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ success: true });
    for (const as of [project.client, project.server, project.admin, project.ownerAdmin]) {
      const after = await server.request("/projects/current", { as });
      expectKnownError(after, "CURRENT_PROJECT_NOT_FOUND", 400);
      expect(after.body.details).toEqual({ project_id: project.id });
    }
    expectKnownError(await server.request("/users/me", { as: user.as }), "CURRENT_PROJECT_NOT_FOUND", 400);
    expectKnownError(await server.request("/internal/projects/current", { as: project.ownerAdmin }), "CURRENT_PROJECT_NOT_FOUND", 400);
    const listed = await server.request("/internal/projects", { as: ownerClient(project.owner) });
    expect(listed.body.items).toEqual([]);
  });

  it("DELETE of the internal project is refused", async () => {
    expectPlainError(await server.request("/internal/projects/current", { method: "DELETE", as: server.internal.admin }), 400);
    expect((await getCurrent(server.internal.admin)).id).toBe("internal");
  });
});

describe("the internal project", () => {
  it("has the documented config", async () => {
    const body = await getCurrent(server.internal.admin);
    expect(body).toMatchObject({ id: "internal", display_name: "Latchkey Dashboard", is_production_mode: false });
    expect(body.config).toMatchObject({
      sign_up_enabled: true,
      credential_enabled: true,
      magic_link_enabled: true,
      allow_localhost: true,
      passkey_enabled: false,
      create_team_on_sign_up: true,
      client_team_creation_enabled: true,
      client_user_deletion_enabled: false,
      allow_user_api_keys: false,
      allow_team_api_keys: false,
      domains: [],
      enabled_oauth_providers: [{ id: "github" }, { id: "google" }, { id: "microsoft" }, { id: "spotify" }],
    });
    expect(body.config.oauth_providers.map((p: { id: string; type: string }) => [p.id, p.type])).toEqual([
      ["github", "shared"],
      ["google", "shared"],
      ["microsoft", "shared"],
      ["spotify", "shared"],
    ]);
  });

  it("gives every user who signs up a personal team: <email>'s Team, else Personal Team", async () => {
    const owner = await signUpOwner(server);
    const me = await server.request("/users/me", { as: ownerClient(owner) });
    expect(me.body.selected_team).toMatchObject({ id: owner.teamId, display_name: `${owner.email}'s Team` });
    expect(me.body.selected_team_id).toBe(owner.teamId);
    expect(Object.keys(me.body.selected_team).sort()).toEqual([
      "client_metadata",
      "client_read_only_metadata",
      "display_name",
      "id",
      "profile_image_url",
    ]);
    const asServer = await server.request(`/users/${owner.userId}`, { as: server.internal.server });
    expect(Object.keys(asServer.body.selected_team).sort()).toEqual([
      "client_metadata",
      "client_read_only_metadata",
      "created_at_millis",
      "display_name",
      "id",
      "profile_image_url",
      "server_metadata",
    ]);
    const anonymous = await server.request("/auth/anonymous/sign-up", { method: "POST", as: server.internal.client });
    expect(anonymous.status, anonymous.text).toBe(200);
    const anonymousUser = await server.request(`/users/${anonymous.body.user_id}`, {
      as: server.internal.server,
      query: { include_anonymous: true },
    });
    expect(anonymousUser.body.selected_team.display_name).toBe("Personal Team");
    // A server's POST /users is not a sign-up: no team, whatever the project says.
    const created = await server.request("/users", {
      method: "POST",
      as: server.internal.server,
      body: { display_name: "Linus", primary_email: `linus-${Date.now()}@example.com` },
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ selected_team: null, selected_team_id: null });
  });
});

describe("owner routes: /internal/projects", () => {
  it("GET lists only the caller's projects, oldest first", async () => {
    const a = await signUpOwner(server);
    const b = await signUpOwner(server);
    const a1 = await createProject(server, a);
    const a2 = await createProject(server, a);
    const b1 = await createProject(server, b);
    const listA = await server.request("/internal/projects", { as: ownerClient(a) });
    expect(listA.status, listA.text).toBe(200);
    expect(listA.body.is_paginated).toBe(false);
    expect(listA.body.items.map((p: { id: string }) => p.id)).toEqual([a1.id, a2.id]);
    for (const item of listA.body.items) expect(Object.keys(item).sort()).toEqual(ADMIN_PROJECT_KEYS);
    const listB = await server.request("/internal/projects", { as: ownerClient(b) });
    expect(listB.body.items.map((p: { id: string }) => p.id)).toEqual([b1.id]);
  });

  it("POST with a team the caller is not in → TEAM_MEMBERSHIP_NOT_FOUND, nothing created", async () => {
    const a = await signUpOwner(server);
    const b = await signUpOwner(server);
    const res = await server.request("/internal/projects", {
      method: "POST",
      as: ownerClient(a),
      body: { display_name: "Hijack", owner_team_id: b.teamId },
    });
    expectKnownError(res, "TEAM_MEMBERSHIP_NOT_FOUND", 404);
    expect(res.body.details).toEqual({ team_id: b.teamId, user_id: a.userId });
    for (const owner of [a, b]) {
      expect((await server.request("/internal/projects", { as: ownerClient(owner) })).body.items).toEqual([]);
    }
  });

  it("POST needs display_name and owner_team_id, and a signed-in owner", async () => {
    const a = await signUpOwner(server);
    expectSchemaError(
      await server.request("/internal/projects", { method: "POST", as: ownerClient(a), body: { owner_team_id: a.teamId } }),
      "POST",
      "/internal/projects",
      ["body.display_name must be defined"],
    );
    expectSchemaError(
      await server.request("/internal/projects", { method: "POST", as: ownerClient(a), body: { display_name: "x" } }),
      "POST",
      "/internal/projects",
      ["body.owner_team_id must be defined"],
    );
    expectKnownError(
      await server.request("/internal/projects", {
        method: "POST",
        as: server.internal.client,
        body: { display_name: "x", owner_team_id: a.teamId },
      }),
      "USER_AUTHENTICATION_REQUIRED",
      401,
    );
    for (const as of [server.internal.server, server.internal.admin]) {
      expectKnownError(await server.request("/internal/projects", { as }), "USER_AUTHENTICATION_REQUIRED", 401);
    }
  });

  it("takes server and admin access on the internal project too, with the owner's session", async () => {
    const owner = await signUpOwner(server);
    const made = [];
    for (const as of [server.internal.server, server.internal.admin]) {
      const withSession = { ...as, accessToken: owner.accessToken };
      const created = await server.request("/internal/projects", {
        method: "POST",
        as: withSession,
        body: { display_name: `By ${as.type}`, owner_team_id: owner.teamId },
      });
      expect(created.status, created.text).toBe(201);
      expect(created.body.owner_team_id).toBe(owner.teamId);
      made.push(created.body.id);
      const listed = await server.request("/internal/projects", { as: withSession });
      expect(listed.status, listed.text).toBe(200);
      expect(listed.body.items.map((p: { id: string }) => p.id)).toEqual(made);
    }
  });

  it("on a non-internal project → EXPECTED_INTERNAL_PROJECT", async () => {
    const project = await createProject(server);
    const user = await signUpUser(server, project);
    expectKnownError(
      await server.request("/internal/projects", {
        method: "POST",
        as: user.as,
        body: { display_name: "x", owner_team_id: project.owner.teamId },
      }),
      "EXPECTED_INTERNAL_PROJECT",
      401,
    );
    expectKnownError(await server.request("/internal/projects", { as: user.as }), "EXPECTED_INTERNAL_PROJECT", 401);
    expectKnownError(
      await server.request("/internal/projects/transfer", {
        method: "POST",
        as: user.as,
        body: { project_id: project.id, new_team_id: project.owner.teamId },
      }),
      "EXPECTED_INTERNAL_PROJECT",
      401,
    );
    // The project's own server and admin keys, even with one of its users signed in, are not the internal project's.
    for (const as of [project.server, project.admin]) {
      const withSession = { ...as, accessToken: user.accessToken };
      expectKnownError(await server.request("/internal/projects", { as: withSession }), "EXPECTED_INTERNAL_PROJECT", 401);
      expectKnownError(
        await server.request("/internal/projects/transfer", {
          method: "POST",
          as: withSession,
          body: { project_id: project.id, new_team_id: project.owner.teamId },
        }),
        "EXPECTED_INTERNAL_PROJECT",
        401,
      );
    }
  });
});

describe("POST /internal/projects/transfer", () => {
  async function addTeam(name: string, members: string[]): Promise<string> {
    const { db } = server.instance.services;
    const [team] = await db.insert(teams).values({ projectId: "internal", displayName: name }).returning();
    for (const userId of members) await addMember(team!.id, userId);
    return team!.id;
  }
  async function addMember(teamId: string, userId: string) {
    await server.instance.services.db.insert(teamMembers).values({ projectId: "internal", teamId, userId });
  }

  it("moves admin rights from the old team's members to the new team's", async () => {
    const owner = await signUpOwner(server);
    const oldMember = await signUpOwner(server); // member of the old team only
    const newMember = await signUpOwner(server); // member of the new team only
    await addMember(owner.teamId, oldMember.userId);
    const newTeam = await addTeam("Second team", [owner.userId, newMember.userId]);
    const project = await createProject(server, owner);
    const adminAs = (o: Owner): Auth => ({ type: "admin", projectId: project.id, adminAccessToken: o.accessToken });

    expect((await server.request("/internal/projects/current", { as: adminAs(oldMember) })).status).toBe(200);
    expectKnownError(
      await server.request("/internal/projects/current", { as: adminAs(newMember) }),
      "ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN",
      401,
    );

    const res = await server.request("/internal/projects/transfer", {
      method: "POST",
      as: ownerClient(owner),
      body: { project_id: project.id, new_team_id: newTeam },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ success: "true" });

    expectKnownError(
      await server.request("/internal/projects/current", { as: adminAs(oldMember) }),
      "ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN",
      401,
    );
    const now = await server.request("/internal/projects/current", { as: adminAs(newMember) });
    expect(now.status, now.text).toBe(200);
    expect(now.body.owner_team_id).toBe(newTeam);
    expect((await server.request("/internal/projects/current", { as: adminAs(owner) })).status).toBe(200);
    // Keys are untouched by a transfer.
    expect((await server.request("/internal/projects/current", { as: project.admin })).status).toBe(200);
    const listOld = await server.request("/internal/projects", { as: ownerClient(oldMember) });
    expect(listOld.body.items).toEqual([]);
    const listNew = await server.request("/internal/projects", { as: ownerClient(newMember) });
    expect(listNew.body.items.map((p: { id: string }) => p.id)).toEqual([project.id]);

    // The old-team member can no longer transfer it back.
    const back = await server.request("/internal/projects/transfer", {
      method: "POST",
      as: ownerClient(oldMember),
      body: { project_id: project.id, new_team_id: owner.teamId },
    });
    expectKnownError(back, "TEAM_MEMBERSHIP_NOT_FOUND", 404);
    expect(back.body.details).toEqual({ team_id: newTeam, user_id: oldMember.userId });
    expect((await getCurrent(project.admin)).owner_team_id).toBe(newTeam);
  });

  it("refuses a team the caller is not in, and a project they do not own", async () => {
    const owner = await signUpOwner(server);
    const stranger = await signUpOwner(server);
    const project = await createProject(server, owner);
    const toStranger = await server.request("/internal/projects/transfer", {
      method: "POST",
      as: ownerClient(owner),
      body: { project_id: project.id, new_team_id: stranger.teamId },
    });
    expectKnownError(toStranger, "TEAM_MEMBERSHIP_NOT_FOUND", 404);
    const steal = await server.request("/internal/projects/transfer", {
      method: "POST",
      as: ownerClient(stranger),
      body: { project_id: project.id, new_team_id: stranger.teamId },
    });
    expectKnownError(steal, "TEAM_MEMBERSHIP_NOT_FOUND", 404);
    expect(steal.body.details).toEqual({ team_id: owner.teamId, user_id: stranger.userId });
    const unknown = await server.request("/internal/projects/transfer", {
      method: "POST",
      as: ownerClient(owner),
      body: { project_id: "00000000-0000-4000-8000-000000000000", new_team_id: owner.teamId },
    });
    expectKnownError(unknown, "PROJECT_NOT_FOUND", 404);
    expect((await getCurrent(project.admin)).owner_team_id).toBe(owner.teamId);
    expectSchemaError(
      await server.request("/internal/projects/transfer", {
        method: "POST",
        as: ownerClient(owner),
        body: { project_id: "internal", new_team_id: owner.teamId },
      }),
      "POST",
      "/internal/projects/transfer",
      ["body.project_id must be a valid UUID"],
    );
  });
});

describe("POST /internal/projects/transfer: who may", () => {
  it("a member of the owning team without team_admin → TEAM_PERMISSION_REQUIRED, checked before the new team", async () => {
    const owner = await signUpOwner(server);
    const member = await signUpOwner(server);
    await server.instance.services.db.insert(teamMembers).values({ projectId: "internal", teamId: owner.teamId, userId: member.userId });
    const project = await createProject(server, owner);
    // The member's own team would be a valid target; the missing permission is what is reported.
    const res = await server.request("/internal/projects/transfer", {
      method: "POST",
      as: ownerClient(member),
      body: { project_id: project.id, new_team_id: member.teamId },
    });
    expectKnownError(res, "TEAM_PERMISSION_REQUIRED", 401);
    expect(res.body.details).toEqual({ team_id: owner.teamId, user_id: member.userId, permission_id: "team_admin" });
    expect((await getCurrent(project.admin)).owner_team_id).toBe(owner.teamId);
  });

  it("an admin of the owning team may transfer with server or admin access on the internal project", async () => {
    const owner = await signUpOwner(server);
    const other = await signUpOwner(server);
    const project = await createProject(server, owner);
    // The owner's personal team and back again, so each access type moves it once.
    await server.instance.services.db.insert(teamMembers).values({ projectId: "internal", teamId: other.teamId, userId: owner.userId });
    const steps = [
      { as: server.internal.server, to: other.teamId },
      { as: server.internal.admin, to: owner.teamId },
    ];
    for (const { as, to } of steps) {
      if (to === owner.teamId) {
        // Back from a team where the owner is a plain member: give them team_admin there first.
        const grant = await server.request(`/team-permissions/${other.teamId}/${owner.userId}/team_admin`, {
          method: "POST",
          as: server.internal.server,
          body: {},
        });
        expect(grant.status, grant.text).toBe(201);
      }
      const res = await server.request("/internal/projects/transfer", {
        method: "POST",
        as: { ...as, accessToken: owner.accessToken },
        body: { project_id: project.id, new_team_id: to },
      });
      expect(res.status, res.text).toBe(200);
      expect(res.body).toEqual({ success: "true" });
      expect((await getCurrent(project.admin)).owner_team_id).toBe(to);
    }
    expectKnownError(
      await server.request("/internal/projects/transfer", {
        method: "POST",
        as: server.internal.server,
        body: { project_id: project.id, new_team_id: other.teamId },
      }),
      "USER_AUTHENTICATION_REQUIRED",
      401,
    );
  });
});

describe("concurrent admin updates", () => {
  it("two PATCHes of different settings at once both take effect", async () => {
    const p = await createProject(server);
    const patch = (config: Record<string, unknown>) =>
      server.request("/internal/projects/current", { method: "PATCH", as: p.admin, body: { config } });
    const [a, b] = await Promise.all([patch({ sign_up_enabled: false }), patch({ client_user_deletion_enabled: true })]);
    expect(a.status, a.text).toBe(200);
    expect(b.status, b.text).toBe(200);
    const now = await server.request("/internal/projects/current", { as: p.admin });
    expect(now.body.config.sign_up_enabled).toBe(false);
    expect(now.body.config.client_user_deletion_enabled).toBe(true);
  });
});
