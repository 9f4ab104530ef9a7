/**
 * Projects written by versions before config overrides hold their whole
 * config in projects.config. At start-up it moves into the overrides; every
 * setting must read the same afterwards, secrets sealed on the way.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { projects } from "../src/db/schema/index.ts";
import { migrateLegacyProjectConfigs } from "../src/domain/config/legacy-migration.ts";
import { defaultProjectConfig, type ProjectConfig } from "../src/domain/projects/config.ts";
import { openClientSecret } from "../src/domain/projects/oauth-secrets.ts";
import { loadProjects } from "../src/domain/projects/projects.ts";
import { storedOverrides } from "./config-fixtures.ts";
import { createTestServer, type TestServer } from "./harness.ts";

let server: TestServer;
beforeAll(async () => {
  server = await createTestServer();
});
afterAll(() => server?.close());

/** A document as the previous version wrote it: every field away from its default, secrets in clear. */
const OLD: ProjectConfig = {
  ...defaultProjectConfig(),
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
  require_email_verification: true,
  require_publishable_client_key: true,
  oauth_account_merge_strategy: "raise_error",
  oauth_providers: [
    { id: "github", type: "standard", client_id: "gh", client_secret: "gh-secret-abcdefgh-1234" },
    { id: "google", type: "shared" },
    { id: "microsoft", type: "standard", client_id: "ms", client_secret: "ms-secret-abcdefgh-5678", microsoft_tenant_id: "tenant" },
  ],
  email_config: {
    type: "standard",
    host: "smtp.example.com",
    port: 465,
    username: "mailer",
    password: "smtp-password-in-clear",
    sender_name: "Shop",
    sender_email: "shop@example.com",
  },
  email_theme: "09ced0c6-bd94-4a7d-9621-fd31fe6ac229",
  domains: [
    { domain: "https://shop.example.com", handler_path: "/handler" },
    { domain: "https://*.example.org", handler_path: "/auth" },
    { domain: "https://admin.example.com", handler_path: "/h" },
  ],
  team_creator_default_permissions: [{ id: "team_admin" }, { id: "custom" }],
  team_member_default_permissions: [],
  user_default_permissions: [{ id: "reader" }],
};

async function insertOldProject(config: ProjectConfig): Promise<string> {
  const id = crypto.randomUUID();
  await server.instance.services.db.insert(projects).values({ id, displayName: "Old", legacyConfig: config });
  return id;
}

async function settingsOf(id: string): Promise<ProjectConfig> {
  const [row] = await loadProjects(server.instance.services.db, server.config.serverSecret, eq(projects.id, id));
  return row!.config;
}

describe("moving an older version's config document into overrides", () => {
  it("keeps every setting's meaning, seals the secrets and clears the document, once", async () => {
    const id = await insertOldProject(OLD);
    const db = server.instance.services.db;
    expect(await migrateLegacyProjectConfigs(db, server.config.serverSecret)).toBeGreaterThanOrEqual(1);

    const after = await settingsOf(id);
    const opened = after.oauth_providers.map((p) =>
      p.client_secret === undefined ? p : { ...p, client_secret: openClientSecret(server.config.serverSecret, p.client_secret) },
    );
    // Default permission lists are answered by id, whatever order they were written in.
    expect({ ...after, oauth_providers: opened }).toEqual({
      ...OLD,
      team_creator_default_permissions: [{ id: "custom" }, { id: "team_admin" }],
    });

    const raw = JSON.stringify(await storedOverrides(server, id));
    for (const secret of ["gh-secret", "ms-secret", "smtp-password"]) expect(raw).not.toContain(secret);
    const [row] = await db.select({ legacy: projects.legacyConfig }).from(projects).where(eq(projects.id, id));
    expect(row!.legacy).toBeNull();

    expect(await migrateLegacyProjectConfigs(db, server.config.serverSecret)).toBe(0);
    expect(await settingsOf(id)).toEqual(after);
  });

  it("keeps the defaults of the previous version (localhost and passwords on) when the document says so", async () => {
    const id = await insertOldProject(defaultProjectConfig());
    await migrateLegacyProjectConfigs(server.instance.services.db, server.config.serverSecret);
    expect(await settingsOf(id)).toEqual(defaultProjectConfig());
  });

  it("is served: the API reads the moved settings", async () => {
    const id = await insertOldProject({ ...defaultProjectConfig(), sign_up_enabled: false });
    await migrateLegacyProjectConfigs(server.instance.services.db, server.config.serverSecret);
    const project = await server.instance.services.projects.get(id);
    expect(project!.rendered.auth.allowSignUp).toBe(false);
    expect(project!.config.sign_up_enabled).toBe(false);
  });
});
