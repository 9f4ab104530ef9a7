/** Config overrides: how levels merge, what a dotted key and null mean, and what is refused with which message. */
import { describe, expect, it } from "vitest";
import {
  applyConfigOverride,
  mergeConfigOverrides,
  migrateConfigOverride,
  parseConfigOverrideString,
  renderConfig,
  resetConfigOverrideKeys,
  validateConfigOverride,
  type ConfigLevel,
  type ConfigOverride,
} from "../src/config/index.ts";
import { DEFAULT_EMAIL_TEMPLATE_IDS, OAUTH_PROVIDER_IDS } from "../src/constants.ts";
import { StatusError } from "../src/known-errors/status-errors.ts";

function refusal(level: ConfigLevel, override: ConfigOverride): string {
  try {
    validateConfigOverride(level, override);
  } catch (error) {
    expect(error).toBeInstanceOf(StatusError);
    expect((error as StatusError).status).toBe(400);
    return (error as Error).message;
  }
  throw new Error("accepted");
}

describe("rendering", () => {
  it("gives every default when nothing is set", () => {
    const config = renderConfig({});
    expect(config.auth.allowSignUp).toBe(true);
    expect(config.auth.password.allowSignIn).toBe(false);
    expect(config.auth.oauth.accountMergeStrategy).toBe("link_method");
    expect(config.domains).toEqual({ allowLocalhost: false, trustedDomains: {} });
    expect(config.emails.selectedThemeId).toBe("1df07ae6-abf3-4a40-83a5-a1a2cbe336ac");
    expect(config.emails.server).toEqual({ isShared: true, provider: "smtp" });
    expect(config.project.requirePublishableClientKey).toBe(false);
    expect(config.sourceOfTruth).toEqual({ type: "hosted" });
    expect(config.apps.installed.authentication).toEqual({ enabled: false });
    expect(config.payments.testMode).toBe(true);
  });

  it("merges levels: a later level wins, and setting a.b replaces everything under a.b below it", () => {
    const merged = mergeConfigOverrides([
      { "auth.oauth.providers.github": { type: "github", allowSignIn: true }, "teams.allowClientTeamCreation": true },
      { auth: { oauth: { providers: { google: { type: "google" } } } } },
      { "auth.oauth.providers": { gitlab: { type: "gitlab" } } },
    ]);
    const config = renderConfig(merged);
    expect(Object.keys(config.auth.oauth.providers)).toEqual(["gitlab"]);
    expect(config.teams.allowClientTeamCreation).toBe(true);
  });

  it("applies a dotted key over a stored object without splitting it", () => {
    const stored = applyConfigOverride({ auth: { allowSignUp: false, otp: { allowSignIn: true } } }, { "auth.otp.allowSignIn": false });
    expect(stored).toEqual({ auth: { allowSignUp: false, otp: { allowSignIn: true } }, "auth.otp.allowSignIn": false });
    const config = renderConfig(stored);
    expect(config.auth.allowSignUp).toBe(false);
    expect(config.auth.otp.allowSignIn).toBe(false);
  });

  it("writing a key drops the stored keys under it, and moves it last", () => {
    const stored = applyConfigOverride({ "a.b.c": 1, "a.bc": 2, "a.b": 3, x: 4 }, { "a.b": null });
    expect(stored).toEqual({ "a.bc": 2, x: 4, "a.b": null });
    expect(Object.keys(stored)).toEqual(["a.bc", "x", "a.b"]);
  });

  it("null gives a fixed field its default and removes a record entry", () => {
    const config = renderConfig(
      mergeConfigOverrides([
        { "auth.allowSignUp": false, "auth.oauth.providers.github": { type: "github" }, "auth.oauth.providers.google": { type: "google" } },
        { "auth.allowSignUp": null, "auth.oauth.providers.github": null },
      ]),
    );
    expect(config.auth.allowSignUp).toBe(true);
    expect(Object.keys(config.auth.oauth.providers)).toEqual(["google"]);
  });

  it("null removes a record entry whose fields all have defaults", () => {
    const config = renderConfig(
      mergeConfigOverrides([{ "dataVault.stores.a": {}, "dataVault.stores.b": { displayName: "B" } }, { "dataVault.stores.a": null }]),
    );
    expect(config.dataVault.stores).toEqual({ b: { displayName: "B" } });
  });

  it("silently drops a dotted key whose record entry was never created, or whose parent is not an object", () => {
    const config = renderConfig({
      "domains.trustedDomains.2.baseUrl": "https://example.com",
      "auth.allowSignUp": false,
      "auth.allowSignUp.x": true,
    });
    expect(config.domains.trustedDomains).toEqual({});
    expect(config.auth.allowSignUp).toBe(false);
  });

  it("leaves out a provider without a type, and fills an entry's defaults", () => {
    const config = renderConfig({ "auth.oauth.providers": { a: { allowSignIn: true }, b: { type: "github" } } });
    expect(config.auth.oauth.providers).toEqual({
      b: { type: "github", allowSignIn: false, allowConnectedAccounts: false, isShared: true, appleBundles: {} },
    });
  });

  it("keeps only the built-in templates while mail goes through the shared server", () => {
    const builtIn = DEFAULT_EMAIL_TEMPLATE_IDS.email_verification;
    const own = "7d0f4c55-98a8-4f7e-b1d4-2f3e6f1c9a20";
    const templates = { [builtIn]: { displayName: "Verify", tsxSource: "a" }, [own]: { displayName: "Mine", tsxSource: "b" } };
    expect(Object.keys(renderConfig({ "emails.templates": templates }).emails.templates)).toEqual([builtIn]);
    const ownServer = { "emails.templates": templates, "emails.server": { isShared: false, host: "smtp.example.com", port: 587 } };
    expect(Object.keys(renderConfig(ownServer).emails.templates).sort()).toEqual([builtIn, own].sort());
  });

  it("gives a product line without a customer type its products' type", () => {
    const config = renderConfig(
      migrateConfigOverride("branch", {
        payments: { groups: { seats: {}, empty: {} }, offers: { team_plan: { groupId: "seats", customerType: "team" } } },
      }),
    );
    expect(config.payments.productLines).toEqual({ seats: { customerType: "team" }, empty: { customerType: "user" } });
    expect(config.payments.products.team_plan!.productLineId).toBe("seats");
  });
});

describe("reset-keys", () => {
  it("removes stored keys equal to or under each key, also inside stored objects", () => {
    const stored = {
      "auth.oauth.providers.github": { type: "github" },
      "auth.allowSignUp": false,
      teams: { allowClientTeamCreation: true, createPersonalTeamOnSignUp: true },
      "teamsX.y": 1,
    };
    expect(resetConfigOverrideKeys(stored, ["auth.oauth", "teams.allowClientTeamCreation", "teamsX"])).toEqual({
      "auth.allowSignUp": false,
      teams: { createPersonalTeamOnSignUp: true },
    });
  });
});

describe("renames on write", () => {
  it("carries older names to the current ones and drops keys no longer kept", () => {
    expect(
      migrateConfigOverride("environment", {
        "emails.theme": "09ced0c6-bd94-4a7d-9621-fd31fe6ac229",
        domains: { trustedDomains: [{ baseUrl: "https://a.example" }, { baseUrl: "https://b.example" }] },
        "payments.offers.pro": { groupId: "plans" },
        payments: { groups: { plans: {} } },
        "workflows.x": {},
        "apps.installed.workflows": { enabled: true },
        sourceOfTruth: { type: "hosted" },
      }),
    ).toEqual({
      "emails.selectedThemeId": "09ced0c6-bd94-4a7d-9621-fd31fe6ac229",
      domains: { trustedDomains: { "0": { baseUrl: "https://a.example" }, "1": { baseUrl: "https://b.example" } } },
      "payments.products.pro": { productLineId: "plans" },
      payments: { productLines: { plans: {} } },
    });
    expect(migrateConfigOverride("project", { sourceOfTruth: { type: "hosted" } })).toEqual({ sourceOfTruth: { type: "hosted" } });
  });
});

describe("validation", () => {
  it("refuses what is not a JSON object", () => {
    expect(() => parseConfigOverrideString("{ invalid json }")).toThrow("Invalid config JSON");
    expect(() => parseConfigOverrideString("[]")).toThrow("Invalid config JSON");
    expect(parseConfigOverrideString('{"a.b": 1}')).toEqual({ "a.b": 1 });
  });

  it("refuses a dot inside a value's keys, and badly formed keys", () => {
    expect(refusal("environment", { auth: { "oauth.providers": {} } })).toBe(
      "Key oauth.providers contains a dot, which is not allowed in config override.",
    );
    expect(refusal("environment", { "auth..allowSignUp": true })).toMatch(/^Invalid config format: /);
    expect(refusal("environment", { "auth allowSignUp": true })).toMatch(/^Invalid config format: /);
  });

  it("refuses unknown keys, environment keys at the branch level and project keys below it", () => {
    expect(refusal("environment", { nonExistentField: "x" })).toBe(
      'The key "nonExistentField" is not valid (nested object not found in schema: "nonExistentField").',
    );
    expect(refusal("environment", { "a.b": "c" })).toBe('The key "a.b" is not valid (nested object not found in schema: "a").');
    expect(refusal("environment", { "auth.allowSignUp.x": true })).toBe(
      'The key "auth.allowSignUp.x" is not valid (nested object not found in schema: "auth.allowSignUp.x").',
    );
    expect(refusal("branch", { "domains.allowLocalhost": true })).toBe(
      'The key "domains.allowLocalhost" is not valid (nested object not found in schema: "domains").',
    );
    expect(refusal("branch", { "auth.oauth.providers.google.clientSecret": "s" })).toBe(
      'The key "auth.oauth.providers.google.clientSecret" is not valid (nested object not found in schema: "auth.oauth.providers.google.clientSecret").',
    );
    expect(refusal("environment", { "project.requirePublishableClientKey": true })).toBe(
      'The key "project.requirePublishableClientKey" is not valid (nested object not found in schema: "project").',
    );
    expect(refusal("project", { "auth.allowSignUp": true })).toBe(
      'The key "auth.allowSignUp" is not valid (nested object not found in schema: "auth").',
    );
  });

  it("refuses ill-typed values with the dotted key as the path", () => {
    expect(refusal("environment", { "auth.oauth.providers.invalid": { type: "nope" } })).toBe(
      `auth.oauth.providers.invalid.type must be one of the following values: ${OAUTH_PROVIDER_IDS.join(", ")}`,
    );
    expect(refusal("branch", { "auth.allowSignUp": "yes" })).toBe(
      'auth.allowSignUp must be a `boolean` type, but the final value was: `"yes"`.',
    );
    expect(refusal("branch", { auth: { password: 3 } })).toBe("auth.password must be a `object` type, but the final value was: `3`.");
    expect(refusal("branch", { "emails.selectedThemeId": "not-a-uuid" })).toBe("emails.selectedThemeId must be a valid UUID");
    expect(refusal("branch", { teams: { unknownFlag: true } })).toBe(
      'The key "teams.unknownFlag" is not valid (nested object not found in schema: "teams.unknownFlag").',
    );
  });

  it("accepts what each level may set, null anywhere, and partial record entries", () => {
    validateConfigOverride("project", { "project.requirePublishableClientKey": true });
    validateConfigOverride("branch", { "auth.oauth.providers.google": { allowSignIn: true }, "teams.allowClientTeamCreation": null });
    validateConfigOverride("environment", {
      "domains.trustedDomains.abc": { baseUrl: "https://example.com" },
      "emails.server": { isShared: false, host: "smtp.example.com", port: 587, password: "pw" },
      "apiKeys.enabled.user": true,
      "dataVault.stores.main": {},
      "rbac.permissions.read:docs": { scope: "project", containedPermissionIds: { other: true } },
    });
  });
});
