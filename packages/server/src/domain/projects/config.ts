/**
 * Project configuration, stored as one JSONB document in the admin wire shape
 * (see @latchkey/shared api/projects.ts) so reading it back needs no mapping.
 */
import {
  DEFAULT_EMAIL_THEME_ID,
  type AdminProjectConfigJson,
  type EmailConfigJson,
  type OAuthProviderConfigJson,
  type OAuthProviderId,
} from "@latchkey/shared";

export type OAuthProviderConfig = OAuthProviderConfigJson;
export type EmailConfig = EmailConfigJson;

/**
 * The stored document: the admin view's config (what admins read back), less
 * what is derived when it is shown (enabled_oauth_providers, each provider's
 * provider_config_id), plus the settings that are written but not shown.
 */
export type ProjectConfig = Omit<AdminProjectConfigJson, "enabled_oauth_providers" | "oauth_providers"> & {
  oauth_providers: OAuthProviderConfig[];
  require_email_verification: boolean;
  require_publishable_client_key: boolean;
};

export function defaultProjectConfig(): ProjectConfig {
  return {
    allow_localhost: true,
    sign_up_enabled: true,
    credential_enabled: true,
    magic_link_enabled: false,
    passkey_enabled: false,
    client_team_creation_enabled: false,
    client_user_deletion_enabled: false,
    allow_user_api_keys: false,
    allow_team_api_keys: false,
    create_team_on_sign_up: false,
    require_email_verification: false,
    require_publishable_client_key: false,
    oauth_account_merge_strategy: "link_method",
    oauth_providers: [],
    email_config: { type: "shared" },
    email_theme: DEFAULT_EMAIL_THEME_ID,
    domains: [],
    team_creator_default_permissions: [{ id: "team_admin" }],
    team_member_default_permissions: [{ id: "team_member" }],
    user_default_permissions: [],
  };
}

/** The internal project: where project owners sign up. */
export function internalProjectConfig(): ProjectConfig {
  return {
    ...defaultProjectConfig(),
    magic_link_enabled: true,
    create_team_on_sign_up: true,
    client_team_creation_enabled: true,
    oauth_providers: (["github", "google", "microsoft", "spotify"] as const).map((id) => ({ id, type: "shared" })),
  };
}

/** Whether the project has an entry for this OAuth provider: accounts of a provider it no longer has are not shown. */
export function hasOAuthProvider(config: Pick<ProjectConfig, "oauth_providers">, providerConfigId: string): boolean {
  return config.oauth_providers.some((p) => p.id === providerConfigId);
}

/**
 * Whether sign-in through this entry can work on this server: a `standard`
 * entry brings its own OAuth app; a `shared` one needs the operator's, which
 * `sharedApps` holds per provider (ServerConfig.sharedOAuthCredentials, from
 * STACK_<PROVIDER>_CLIENT_ID/SECRET or MOCK).
 */
export function isUsableOAuthProvider(entry: OAuthProviderConfig, sharedApps: Partial<Record<OAuthProviderId, unknown>>): boolean {
  // The admin API refuses standard entries without credentials; an old document may still lack them.
  if (entry.type === "standard") return Boolean(entry.client_id && entry.client_secret);
  return sharedApps[entry.id] !== undefined;
}
