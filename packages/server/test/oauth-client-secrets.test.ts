/**
 * Standard providers' client secrets: sealed in the stored config, masked in
 * the admin view, kept when a PATCH sends the mask back or leaves them out,
 * opened again for the provider connection, and sealed at start-up when an
 * older version's config document holds them in clear.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { projects } from "../src/db/schema/index.ts";
import { enabledProvider } from "../src/domain/auth/oauth/providers.ts";
import type { ProjectConfig } from "../src/domain/projects/config.ts";
import { migrateLegacyProjectConfigs } from "../src/domain/config/legacy-migration.ts";
import { isSealedClientSecret } from "../src/domain/projects/oauth-secrets.ts";
import { loadProjects } from "../src/domain/projects/projects.ts";
import { storedOverrides } from "./config-fixtures.ts";
import { createProject, patchProjectConfig, type Project } from "./fixtures.ts";
import { createTestServer, expectKnownError, type TestServer } from "./harness.ts";

const SECRET = "gh-secret-abcdefgh-1234";
const GITHUB = { id: "github", type: "standard", client_id: "gh-client" };

let server: TestServer;
beforeAll(async () => {
  server = await createTestServer();
});
afterAll(() => server?.close());

/** The settings as read from the database: client secrets as stored. */
async function storedConfig(p: Pick<Project, "id">): Promise<ProjectConfig> {
  const [row] = await loadProjects(server.instance.services.db, server.config.serverSecret, eq(projects.id, p.id));
  return row!.config;
}

function openedSecret(config: ProjectConfig, id = "github"): string {
  const provider = enabledProvider(server.config, config, id);
  if (provider.connection.kind !== "app") throw new Error("expected the project's own app");
  return provider.connection.settings.clientSecret;
}

async function adminProviders(p: Project) {
  const res = await server.request("/internal/projects/current", { as: p.ownerAdmin });
  expect(res.status, res.text).toBe(200);
  return res.body.config.oauth_providers as Record<string, unknown>[];
}

describe("a standard provider's client_secret", () => {
  it("is stored sealed, shown masked to admins, and opened for the provider", async () => {
    const p = await createProject(server, undefined, { oauth_providers: [{ ...GITHUB, client_secret: SECRET }] });
    const config = await storedConfig(p);
    const raw = JSON.stringify(await storedOverrides(server, p.id));
    expect(raw).not.toContain(SECRET);
    expect(raw).not.toContain("1234");
    expect(isSealedClientSecret(config.oauth_providers[0]!.client_secret!)).toBe(true);
    expect(await adminProviders(p)).toEqual([{ ...GITHUB, client_secret: "********1234", provider_config_id: "github" }]);
    expect(openedSecret(config)).toBe(SECRET);
  });

  it("is sealed even on a shared entry, which does not use it", async () => {
    const p = await createProject(server, undefined, { oauth_providers: [{ id: "github", type: "shared", client_secret: SECRET }] });
    expect(JSON.stringify(await storedConfig(p))).not.toContain(SECRET);
    expect((await adminProviders(p))[0]!.client_secret).toBe("********1234");
  });

  it("shorter than twelve characters, is shown as the mask alone", async () => {
    const p = await createProject(server, undefined, { oauth_providers: [{ ...GITHUB, client_secret: "short-1234" }] });
    expect((await adminProviders(p))[0]!.client_secret).toBe("********");
    expect(openedSecret(await storedConfig(p))).toBe("short-1234");
  });

  it("is kept when a PATCH sends the mask back or leaves it out, and replaced by a new one", async () => {
    const p = await createProject(server, undefined, { oauth_providers: [{ ...GITHUB, client_secret: SECRET }] });
    const sealed = (await storedConfig(p)).oauth_providers[0]!.client_secret;

    const echoed = await patchProjectConfig(server, p, { oauth_providers: [{ ...GITHUB, client_secret: "********1234" }] });
    expect(echoed.config.oauth_providers[0].client_secret).toBe("********1234");
    expect((await storedConfig(p)).oauth_providers[0]!.client_secret).toBe(sealed);

    await patchProjectConfig(server, p, { oauth_providers: [{ ...GITHUB, client_id: "gh-client-2" }] });
    const omitted = await storedConfig(p);
    expect(omitted.oauth_providers[0]).toMatchObject({ client_id: "gh-client-2", client_secret: sealed });
    expect(openedSecret(omitted)).toBe(SECRET);

    await patchProjectConfig(server, p, { oauth_providers: [{ ...GITHUB, client_secret: "a-brand-new-secret-9876" }] });
    const replaced = await storedConfig(p);
    expect(JSON.stringify(replaced)).not.toContain("a-brand-new-secret");
    expect(openedSecret(replaced)).toBe("a-brand-new-secret-9876");
    expect((await adminProviders(p))[0]!.client_secret).toBe("********9876");

    // A mask that does not match the stored secret is a new secret, not a request to keep it.
    await patchProjectConfig(server, p, { oauth_providers: [{ ...GITHUB, client_secret: "********0000" }] });
    expect(openedSecret(await storedConfig(p))).toBe("********0000");
  });

  it("must be sent for a standard provider that has none yet; nothing changes", async () => {
    const p = await createProject(server, undefined, { oauth_providers: [{ id: "google", type: "shared" }] });
    const before = await storedConfig(p);
    for (const provider of [{ ...GITHUB }, { id: "google", type: "standard", client_id: "g" }]) {
      const res = await server.request("/internal/projects/current", {
        method: "PATCH",
        as: p.ownerAdmin,
        body: { config: { oauth_providers: [provider] } },
      });
      expectKnownError(res, "SCHEMA_ERROR", 400);
      expect(res.body.error).toContain(`${provider.id} needs client_id and client_secret when type is standard`);
    }
    expect(await storedConfig(p)).toEqual(before);
  });

  it("stored in clear by an older version is sealed at start-up, once", async () => {
    const p = await createProject(server, undefined, { oauth_providers: [{ id: "google", type: "shared" }] });
    const db = server.instance.services.db;
    // As an older version stored it: one document in projects.config, no overrides.
    const [old] = await db
      .insert(projects)
      .values({
        id: crypto.randomUUID(),
        displayName: "Old",
        legacyConfig: {
          ...(await storedConfig(p)),
          oauth_providers: [{ id: "github", type: "standard", client_id: "gh", client_secret: SECRET }],
        },
      })
      .returning();

    expect(await migrateLegacyProjectConfigs(db, server.config.serverSecret)).toBe(1);
    expect(JSON.stringify(await storedOverrides(server, old!.id))).not.toContain(SECRET);
    const sealed = await storedConfig(old!);
    expect(isSealedClientSecret(sealed.oauth_providers[0]!.client_secret!)).toBe(true);
    expect(openedSecret(sealed)).toBe(SECRET);
    expect(await migrateLegacyProjectConfigs(db, server.config.serverSecret)).toBe(0);
    expect(await storedConfig(old!)).toEqual(sealed);
  });
});
