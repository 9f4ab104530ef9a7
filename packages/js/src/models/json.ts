/** Wire shapes the SDK reads (WIRE §2), snake_case as the server sends them. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export interface TeamJson {
  id: string;
  display_name: string;
  profile_image_url: string | null;
  client_metadata: Json;
  client_read_only_metadata: Json;
  created_at_millis?: number;
  server_metadata?: Json;
}

export interface ClientUserJson {
  id: string;
  display_name: string | null;
  primary_email: string | null;
  primary_email_verified: boolean;
  profile_image_url: string | null;
  signed_up_at_millis: number;
  client_metadata: Json;
  client_read_only_metadata: Json;
  has_password: boolean;
  auth_with_email: boolean;
  otp_auth_enabled: boolean;
  passkey_auth_enabled: boolean;
  requires_totp_mfa: boolean;
  is_anonymous: boolean;
  is_restricted: boolean;
  restricted_reason: { type: string } | null;
  restricted_by_admin: boolean;
  restricted_by_admin_reason: string | null;
  oauth_providers: { id: string; account_id: string; email: string | null }[];
  selected_team: TeamJson | null;
  selected_team_id: string | null;
}

export interface ServerUserJson extends ClientUserJson {
  last_active_at_millis: number;
  server_metadata: Json;
  primary_email_auth_enabled: boolean;
  restricted_by_admin_private_details: string | null;
  country_code: string | null;
  risk_scores: { sign_up: { bot: number; free_trial_abuse: number } };
}

export interface SessionJson {
  id: string;
  user_id: string;
  created_at: number;
  last_used_at: number | null;
  is_impersonation: boolean;
  is_current_session: boolean;
}

export interface ClientProjectJson {
  id: string;
  display_name: string;
  config: {
    sign_up_enabled: boolean;
    credential_enabled: boolean;
    magic_link_enabled: boolean;
    passkey_enabled: boolean;
    client_team_creation_enabled: boolean;
    client_user_deletion_enabled: boolean;
    allow_user_api_keys: boolean;
    allow_team_api_keys: boolean;
    enabled_oauth_providers: { id: string }[];
    domains: { domain: string; handler_path: string }[];
  };
}

export interface AdminProjectJson {
  id: string;
  display_name: string;
  description: string;
  created_at_millis: number;
  is_production_mode: boolean;
  owner_team_id: string | null;
  logo_url: string | null;
  logo_full_url: string | null;
  logo_dark_mode_url: string | null;
  logo_full_dark_mode_url: string | null;
  config: Record<string, Json> & ClientProjectJson["config"];
}

export interface InternalApiKeyJson {
  id: string;
  description: string;
  created_at_millis: number;
  expires_at_millis?: number;
  manually_revoked_at_millis?: number;
  publishable_client_key?: string | { last_four: string };
  secret_server_key?: string | { last_four: string };
  super_secret_admin_key?: string | { last_four: string };
}

export interface TokensJson {
  access_token: string;
  refresh_token: string;
  user_id?: string;
}
