/**
 * The project's settings in the admin API's older shape (ProjectConfig, the
 * fields of PATCH /internal/projects/current) are a view of the rendered
 * config, and writing them writes the same keys to the environment
 * override. Both ways of configuring a project therefore agree.
 */
import type { ConfigOverride, ProjectConfigPatch, RenderedConfig } from "@latchkey/shared";
import type { EmailConfig, OAuthProviderConfig, ProjectConfig } from "../projects/config.ts";
import { openClientSecret } from "../projects/oauth-secrets.ts";

type Provider = RenderedConfig["auth"]["oauth"]["providers"][string];

/** The view. Client secrets stay sealed (opened where used); the SMTP password is opened for sending. */
export function projectConfigOf(rendered: RenderedConfig, serverSecret: string): ProjectConfig {
  const server = rendered.emails.server;
  // The own server is in use once it can send: a host and a sender. Until then (keys written one at a time)
  // mail keeps going through the shared server, as before it was chosen.
  const email: EmailConfig =
    server.isShared || !server.host || !server.senderEmail || !server.senderName
      ? { type: "shared" }
      : {
          type: "standard",
          host: server.host ?? "",
          port: server.port ?? 0,
          username: server.username ?? "",
          password: server.password === undefined ? "" : openClientSecret(serverSecret, server.password),
          sender_name: server.senderName ?? "",
          sender_email: server.senderEmail ?? "",
        };
  const providers: OAuthProviderConfig[] = [];
  for (const p of Object.values(rendered.auth.oauth.providers) as Provider[]) {
    if (!p.allowSignIn || providers.some((q) => q.id === p.type)) continue;
    providers.push(providerView(p));
  }
  // Listed by id, whatever order the config keeps them in.
  const ids = (set: Record<string, true>) =>
    Object.keys(set)
      .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
      .map((id) => ({ id }));
  return {
    allow_localhost: rendered.domains.allowLocalhost,
    sign_up_enabled: rendered.auth.allowSignUp,
    credential_enabled: rendered.auth.password.allowSignIn,
    magic_link_enabled: rendered.auth.otp.allowSignIn,
    passkey_enabled: rendered.auth.passkey.allowSignIn,
    client_team_creation_enabled: rendered.teams.allowClientTeamCreation,
    client_user_deletion_enabled: rendered.users.allowClientUserDeletion,
    allow_user_api_keys: rendered.apiKeys.enabled.user,
    allow_team_api_keys: rendered.apiKeys.enabled.team,
    create_team_on_sign_up: rendered.teams.createPersonalTeamOnSignUp,
    require_email_verification: rendered.onboarding.requireEmailVerification,
    require_publishable_client_key: rendered.project.requirePublishableClientKey,
    oauth_account_merge_strategy: rendered.auth.oauth.accountMergeStrategy,
    oauth_providers: providers,
    email_config: email,
    email_theme: rendered.emails.selectedThemeId,
    domains: Object.values(rendered.domains.trustedDomains).map((d) => ({ domain: d.baseUrl, handler_path: d.handlerPath })),
    team_creator_default_permissions: ids(rendered.rbac.defaultPermissions.teamCreator),
    team_member_default_permissions: ids(rendered.rbac.defaultPermissions.teamMember),
    user_default_permissions: ids(rendered.rbac.defaultPermissions.signUp),
  };
}

function providerView(p: Provider): OAuthProviderConfig {
  const out: OAuthProviderConfig = { id: p.type, type: p.isShared ? "shared" : "standard" };
  if (p.clientId !== undefined) out.client_id = p.clientId;
  if (p.clientSecret !== undefined) out.client_secret = p.clientSecret;
  if (p.facebookConfigId !== undefined) out.facebook_config_id = p.facebookConfigId;
  if (p.microsoftTenantId !== undefined) out.microsoft_tenant_id = p.microsoftTenantId;
  const bundles = Object.values(p.appleBundles).map((b) => b.bundleId);
  if (bundles.length > 0) out.apple_bundle_ids = bundles;
  return out;
}

function providerOverride(p: OAuthProviderConfig): Record<string, unknown> {
  const out: Record<string, unknown> = { type: p.id, isShared: p.type === "shared", allowSignIn: true, allowConnectedAccounts: true };
  if (p.client_id !== undefined) out.clientId = p.client_id;
  if (p.client_secret !== undefined) out.clientSecret = p.client_secret;
  if (p.facebook_config_id !== undefined) out.facebookConfigId = p.facebook_config_id;
  if (p.microsoft_tenant_id !== undefined) out.microsoftTenantId = p.microsoft_tenant_id;
  if (p.apple_bundle_ids !== undefined)
    out.appleBundles = Object.fromEntries(p.apple_bundle_ids.map((bundleId, i) => [String(i), { bundleId }]));
  return out;
}

function emailServerOverride(c: EmailConfig): Record<string, unknown> {
  if (c.type === "shared") return { isShared: true };
  return {
    isShared: false,
    provider: "smtp",
    host: c.host,
    port: c.port,
    username: c.username,
    password: c.password,
    senderName: c.sender_name,
    senderEmail: c.sender_email,
  };
}

const permissionSet = (list: readonly { id: string }[]) => Object.fromEntries(list.map(({ id }) => [id, true]));

/** The environment keys a patch of the older fields writes; lists and objects replace what was there. */
export function legacyPatchOverride(patch: ProjectConfigPatch | Partial<ProjectConfig>): ConfigOverride {
  const out: ConfigOverride = {};
  const set = (key: string, value: unknown) => {
    if (value !== undefined) out[key] = value;
  };
  set("auth.allowSignUp", patch.sign_up_enabled);
  set("auth.password.allowSignIn", patch.credential_enabled);
  set("auth.otp.allowSignIn", patch.magic_link_enabled);
  set("auth.passkey.allowSignIn", patch.passkey_enabled);
  set("auth.oauth.accountMergeStrategy", patch.oauth_account_merge_strategy);
  if (patch.oauth_providers)
    out["auth.oauth.providers"] = Object.fromEntries(patch.oauth_providers.map((p) => [p.id, providerOverride(p)]));
  set("users.allowClientUserDeletion", patch.client_user_deletion_enabled);
  set("teams.allowClientTeamCreation", patch.client_team_creation_enabled);
  set("teams.createPersonalTeamOnSignUp", patch.create_team_on_sign_up);
  set("domains.allowLocalhost", patch.allow_localhost);
  if (patch.domains) {
    out["domains.trustedDomains"] = Object.fromEntries(
      patch.domains.map((d) => [crypto.randomUUID(), { baseUrl: d.domain, handlerPath: d.handler_path }]),
    );
  }
  set("apiKeys.enabled.user", patch.allow_user_api_keys);
  set("apiKeys.enabled.team", patch.allow_team_api_keys);
  if (patch.email_config) out["emails.server"] = emailServerOverride(patch.email_config);
  set("emails.selectedThemeId", patch.email_theme);
  if (patch.team_member_default_permissions)
    out["rbac.defaultPermissions.teamMember"] = permissionSet(patch.team_member_default_permissions);
  if (patch.team_creator_default_permissions)
    out["rbac.defaultPermissions.teamCreator"] = permissionSet(patch.team_creator_default_permissions);
  if (patch.user_default_permissions) out["rbac.defaultPermissions.signUp"] = permissionSet(patch.user_default_permissions);
  set("onboarding.requireEmailVerification", patch.require_email_verification);
  return out;
}

/** What a new project's environment starts with, before the fields its creator sent. */
export const NEW_PROJECT_ENVIRONMENT: ConfigOverride = {
  "domains.allowLocalhost": true,
  "auth.password.allowSignIn": true,
  "rbac.defaultPermissions.teamCreator": { team_admin: true },
  "rbac.defaultPermissions.teamMember": { team_member: true },
  "apps.installed.authentication.enabled": true,
  "apps.installed.emails.enabled": true,
};

/** A whole older config document as overrides: every field written, so none changes meaning. */
export function legacyConfigOverrides(config: ProjectConfig): { project: ConfigOverride; environment: ConfigOverride } {
  return {
    project: { "project.requirePublishableClientKey": config.require_publishable_client_key ?? false },
    environment: {
      "apps.installed.authentication.enabled": true,
      "apps.installed.emails.enabled": true,
      ...legacyPatchOverride(config),
    },
  };
}
