/** User objects per access level (WIRE §2.1). */
import type { Json } from "./json.ts";
import type { ClientTeamJson, ServerTeamJson } from "./teams.ts";

export interface UserOAuthProviderJson {
  account_id: string;
  email: string | null;
  id: string;
}

export interface ClientUserJson {
  auth_with_email: boolean;
  client_metadata: Json;
  client_read_only_metadata: Json;
  display_name: string | null;
  has_password: boolean;
  id: string;
  is_anonymous: boolean;
  is_restricted: boolean;
  oauth_providers: UserOAuthProviderJson[];
  otp_auth_enabled: boolean;
  passkey_auth_enabled: boolean;
  primary_email: string | null;
  primary_email_verified: boolean;
  profile_image_url: string | null;
  requires_totp_mfa: boolean;
  restricted_by_admin: boolean;
  restricted_by_admin_reason: string | null;
  restricted_reason: { type: string } | null;
  selected_team: ClientTeamJson | null;
  selected_team_id: string | null;
  signed_up_at_millis: number;
}

export interface ServerUserJson extends Omit<ClientUserJson, "selected_team"> {
  country_code: string | null;
  last_active_at_millis: number;
  primary_email_auth_enabled: boolean;
  restricted_by_admin_private_details: string | null;
  risk_scores: { sign_up: { bot: number; free_trial_abuse: number } };
  selected_team: ServerTeamJson | null;
  server_metadata: Json;
}
