/** The project objects, client and admin view (their schemas: @latchkey/shared api/projects.ts). */
import type { AdminProjectConfigJson, AdminProjectJson, ClientProjectJson, OAuthProviderId } from "@latchkey/shared";
import { isUsableOAuthProvider, type OAuthProviderConfig, type ProjectConfig } from "./config.ts";
import { maskedProviders } from "./oauth-secrets.ts";
import type { ProjectRow } from "./project-row.ts";

function enabledOAuthProviders(entries: readonly OAuthProviderConfig[]) {
  return entries.map((p) => ({ id: p.id })).sort((a, b) => a.id.localeCompare(b.id));
}

/**
 * `sharedApps`: the providers the operator has keys for (ServerConfig.sharedOAuthCredentials). The
 * client view leaves out the entries sign-in cannot use here, so sign-in pages show no dead button
 * (the internal project lists GitHub, Google, … as shared on every install); the admin view keeps them.
 */
export function clientProjectView(project: ProjectRow, sharedApps: Partial<Record<OAuthProviderId, unknown>>): ClientProjectJson {
  const c = project.config;
  return {
    config: {
      allow_team_api_keys: c.allow_team_api_keys,
      allow_user_api_keys: c.allow_user_api_keys,
      client_team_creation_enabled: c.client_team_creation_enabled,
      client_user_deletion_enabled: c.client_user_deletion_enabled,
      credential_enabled: c.credential_enabled,
      domains: c.domains,
      enabled_oauth_providers: enabledOAuthProviders(c.oauth_providers.filter((p) => isUsableOAuthProvider(p, sharedApps))),
      magic_link_enabled: c.magic_link_enabled,
      passkey_enabled: c.passkey_enabled,
      sign_up_enabled: c.sign_up_enabled,
    },
    display_name: project.displayName,
    id: project.id,
    logo_full_url: project.logoFullUrl,
    logo_url: project.logoUrl,
  };
}

/** The server secret opens each standard provider's client_secret, which is shown masked. */
export function adminConfigView(c: ProjectConfig, serverSecret: string): AdminProjectConfigJson {
  return {
    allow_localhost: c.allow_localhost,
    allow_team_api_keys: c.allow_team_api_keys,
    allow_user_api_keys: c.allow_user_api_keys,
    client_team_creation_enabled: c.client_team_creation_enabled,
    client_user_deletion_enabled: c.client_user_deletion_enabled,
    create_team_on_sign_up: c.create_team_on_sign_up,
    credential_enabled: c.credential_enabled,
    domains: c.domains,
    email_config: c.email_config,
    email_theme: c.email_theme,
    enabled_oauth_providers: enabledOAuthProviders(c.oauth_providers),
    magic_link_enabled: c.magic_link_enabled,
    oauth_account_merge_strategy: c.oauth_account_merge_strategy,
    oauth_providers: maskedProviders(serverSecret, c.oauth_providers)
      .sort((a, b) => a.id.localeCompare(b.id))
      .map((p) => ({ ...p, provider_config_id: p.id })),
    passkey_enabled: c.passkey_enabled,
    sign_up_enabled: c.sign_up_enabled,
    team_creator_default_permissions: c.team_creator_default_permissions,
    team_member_default_permissions: c.team_member_default_permissions,
    user_default_permissions: c.user_default_permissions,
  };
}

export function adminProjectView(project: ProjectRow, serverSecret: string): AdminProjectJson {
  return {
    config: adminConfigView(project.config, serverSecret),
    created_at_millis: project.createdAt.getTime(),
    description: project.description,
    display_name: project.displayName,
    id: project.id,
    is_production_mode: project.isProductionMode,
    logo_dark_mode_url: project.logoDarkModeUrl,
    logo_full_dark_mode_url: project.logoFullDarkModeUrl,
    logo_full_url: project.logoFullUrl,
    logo_url: project.logoUrl,
    onboarding_status: "completed",
    owner_team_id: project.ownerTeamId,
  };
}
