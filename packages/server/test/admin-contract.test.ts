/**
 * The admin endpoints (/internal/*) in the shared contract: their answers are
 * described exactly (a field the server does not send cannot slip into the
 * schema, and a field the schema lacks fails the response check), and the
 * OpenAPI document lists their own coded errors.
 */
import {
  adminProjectJson,
  emailDraftJson,
  emailTemplateJson,
  internalApiKeyFirstViewJson,
  internalApiKeyJson,
  projectPatchBody,
} from "@latchkey/shared";
import { renderConfig } from "@latchkey/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminConfigView, adminProjectView } from "../src/domain/projects/views.ts";
import { internalProjectConfig } from "../src/domain/projects/config.ts";
import type { ProjectRow } from "../src/domain/projects/project-row.ts";
import { createTestServer, type TestServer } from "./harness.ts";

let server: TestServer;
let doc: any;
beforeAll(async () => {
  server = await createTestServer();
  doc = (await server.request("/openapi.json")).body;
});
afterAll(() => server.close());

const row: ProjectRow = {
  id: "11111111-1111-4111-8111-111111111111",
  displayName: "Shop",
  description: "",
  createdAt: new Date(0),
  isProductionMode: false,
  logoUrl: null,
  logoFullUrl: null,
  logoDarkModeUrl: null,
  logoFullDarkModeUrl: null,
  ownerTeamId: null,
  rendered: renderConfig({}),
  config: internalProjectConfig(),
};

describe("the admin project view", () => {
  it("matches its schema; the schema refuses require_email_verification, which is written but never shown", () => {
    const view = adminProjectView(row, "x".repeat(32));
    expect(adminProjectJson.safeParse(view).success).toBe(true);
    const drifted = { ...view, config: { ...adminConfigView(row.config, "x".repeat(32)), require_email_verification: false } };
    const result = adminProjectJson.safeParse(drifted);
    expect(result.success).toBe(false);
    expect(JSON.stringify(result.error?.issues)).toContain("require_email_verification");
  });

  it("refuses an OAuth provider entry without provider_config_id, and an e-mail config of an unknown type", () => {
    const view = adminProjectView(row, "x".repeat(32));
    const noConfigId = { ...view, config: { ...view.config, oauth_providers: [{ id: "github", type: "shared" }] } };
    expect(adminProjectJson.safeParse(noConfigId).success).toBe(false);
    const badMail = { ...view, config: { ...view.config, email_config: { type: "resend" } } };
    expect(adminProjectJson.safeParse(badMail).success).toBe(false);
  });

  it("PATCH takes require_email_verification but no field outside the config", () => {
    expect(projectPatchBody.safeParse({ config: { require_email_verification: true } }).success).toBe(true);
    expect(projectPatchBody.safeParse({ config: { require_publishable_client_key: true } }).success).toBe(false);
  });
});

describe("API key and e-mail objects", () => {
  it("a listed key shows last four characters, never a full key; the first view the reverse", () => {
    const listed = { created_at_millis: 1, description: "d", id: "x", secret_server_key: { last_four: "abcd" } };
    expect(internalApiKeyJson.safeParse(listed).success).toBe(true);
    expect(internalApiKeyJson.safeParse({ ...listed, secret_server_key: "ssk_full" }).success).toBe(false);
    const first = { created_at_millis: 1, description: "d", expires_at_millis: 2, id: "x", secret_server_key: "ssk_full" };
    expect(internalApiKeyFirstViewJson.safeParse(first).success).toBe(true);
    expect(internalApiKeyFirstViewJson.safeParse({ ...first, secret_server_key: { last_four: "abcd" } }).success).toBe(false);
  });

  it("theme_id is a theme's id or false, never null in an answer; only drafts carry sent_at_millis", () => {
    const template = { id: "t", display_name: "T", tsx_source: "x" };
    expect(emailTemplateJson.safeParse({ ...template, theme_id: false }).success).toBe(true);
    expect(emailTemplateJson.safeParse({ ...template, theme_id: null }).success).toBe(false);
    expect(emailTemplateJson.safeParse({ ...template, sent_at_millis: 1 }).success).toBe(false);
    expect(emailDraftJson.safeParse({ ...template, sent_at_millis: 1 }).success).toBe(true);
  });
});

describe("the OpenAPI document of the admin endpoints", () => {
  const codes = (path: string, method: string) => doc.paths[path][method]["x-known-errors"] as string[];

  it("lists each endpoint's own coded errors", () => {
    expect(codes("/internal/api-keys/{api_key_id}", "get")).toContain("API_KEY_NOT_FOUND");
    expect(codes("/internal/email-templates", "post")).toContain("REQUIRES_CUSTOM_EMAIL_SERVER");
    expect(codes("/internal/email-templates/{template_id}", "patch")).toContain("EMAIL_RENDERING_ERROR");
    expect(codes("/internal/projects/transfer", "post")).toEqual(
      expect.arrayContaining([
        "EXPECTED_INTERNAL_PROJECT",
        "USER_AUTHENTICATION_REQUIRED",
        "PROJECT_NOT_FOUND",
        "TEAM_MEMBERSHIP_NOT_FOUND",
        "TEAM_PERMISSION_REQUIRED",
      ]),
    );
  });

  it("documents the answers: the project creation's 201 and the admin config's fields", () => {
    const created = doc.paths["/internal/projects"].post.responses["201"].content["application/json"].schema;
    const config = created.properties.config;
    expect(Object.keys(config.properties)).toContain("email_config");
    expect(Object.keys(config.properties)).not.toContain("require_email_verification");
    const drafts = doc.paths["/internal/email-drafts"].get.responses["200"].content["application/json"].schema;
    expect(drafts.properties.drafts.type).toBe("array");
  });
});
