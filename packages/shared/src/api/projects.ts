/** Project objects: the public (client) view and the admin view (WIRE §2.4). */
export interface TrustedDomainJson {
  domain: string;
  handler_path: string;
}

export interface ClientProjectConfigJson {
  allow_team_api_keys: boolean;
  allow_user_api_keys: boolean;
  client_team_creation_enabled: boolean;
  client_user_deletion_enabled: boolean;
  credential_enabled: boolean;
  domains: TrustedDomainJson[];
  enabled_oauth_providers: { id: string }[];
  magic_link_enabled: boolean;
  passkey_enabled: boolean;
  sign_up_enabled: boolean;
}

export interface ClientProjectJson {
  config: ClientProjectConfigJson;
  display_name: string;
  id: string;
}

export interface AdminProjectConfigJson extends ClientProjectConfigJson {
  allow_localhost: boolean;
  create_team_on_sign_up: boolean;
  email_config: Record<string, unknown>;
  email_theme: string;
  oauth_account_merge_strategy: "link_method" | "raise_error" | "allow_duplicates";
  oauth_providers: ({ id: string; provider_config_id: string; type: "shared" | "standard" } & Record<string, unknown>)[];
  team_creator_default_permissions: { id: string }[];
  team_member_default_permissions: { id: string }[];
  user_default_permissions: { id: string }[];
}

export interface AdminProjectJson {
  config: AdminProjectConfigJson;
  created_at_millis: number;
  description: string;
  display_name: string;
  id: string;
  is_production_mode: boolean;
  logo_dark_mode_url: string | null;
  logo_full_dark_mode_url: string | null;
  logo_full_url: string | null;
  logo_url: string | null;
  onboarding_status: string;
  owner_team_id: string | null;
}
