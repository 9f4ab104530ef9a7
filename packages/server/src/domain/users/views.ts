/** The user objects, per access level (their schemas: @latchkey/shared api/users.ts). */
import { hasTotp } from "../auth/mfa/totp.ts";
import type { ClientUserJson, Json, ServerUserJson } from "@latchkey/shared";
import { hasOAuthProvider, type ProjectConfig } from "../projects/config.ts";
import { clientTeamView, serverTeamView } from "../teams/views.ts";
import { restrictedReason, type UserRecord } from "./record.ts";

function common(user: UserRecord, config: ProjectConfig) {
  const reason = restrictedReason(user, config.require_email_verification);
  return {
    auth_with_email: user.passwordHash !== null || user.otpAuthEnabled,
    client_metadata: (user.clientMetadata ?? null) as Json,
    client_read_only_metadata: (user.clientReadOnlyMetadata ?? null) as Json,
    display_name: user.displayName,
    has_password: user.passwordHash !== null,
    id: user.id,
    is_anonymous: user.isAnonymous,
    is_restricted: reason !== null,
    // As /oauth-providers lists them: a provider the project removed hides its accounts until it is back.
    oauth_providers: user.oauthProviders.filter((account) => hasOAuthProvider(config, account.id)),
    otp_auth_enabled: user.otpAuthEnabled,
    passkey_auth_enabled: user.passkeyAuthEnabled,
    primary_email: user.primaryEmail,
    primary_email_verified: user.primaryEmailVerified,
    profile_image_url: user.profileImageUrl,
    requires_totp_mfa: hasTotp(user),
    restricted_by_admin: user.restrictedByAdmin,
    restricted_by_admin_reason: user.restrictedByAdminReason,
    restricted_reason: reason,
  };
}

export function clientUserView(user: UserRecord, config: ProjectConfig): ClientUserJson {
  return {
    ...common(user, config),
    selected_team: user.selectedTeam ? clientTeamView(user.selectedTeam) : null,
    selected_team_id: user.selectedTeamId,
    signed_up_at_millis: user.signedUpAt.getTime(),
  };
}

export function serverUserView(user: UserRecord, config: ProjectConfig): ServerUserJson {
  const base = common(user, config);
  return {
    auth_with_email: base.auth_with_email,
    client_metadata: base.client_metadata,
    client_read_only_metadata: base.client_read_only_metadata,
    country_code: user.countryCode,
    display_name: base.display_name,
    has_password: base.has_password,
    id: base.id,
    is_anonymous: base.is_anonymous,
    is_restricted: base.is_restricted,
    last_active_at_millis: user.lastActiveAt.getTime(),
    oauth_providers: base.oauth_providers,
    otp_auth_enabled: base.otp_auth_enabled,
    passkey_auth_enabled: base.passkey_auth_enabled,
    primary_email: base.primary_email,
    primary_email_auth_enabled: user.primaryEmailAuthEnabled,
    primary_email_verified: base.primary_email_verified,
    profile_image_url: base.profile_image_url,
    requires_totp_mfa: base.requires_totp_mfa,
    restricted_by_admin: base.restricted_by_admin,
    restricted_by_admin_private_details: user.restrictedByAdminPrivateDetails,
    restricted_by_admin_reason: base.restricted_by_admin_reason,
    restricted_reason: base.restricted_reason,
    risk_scores: { sign_up: { bot: user.signUpBotRiskScore, free_trial_abuse: 0 } },
    selected_team: user.selectedTeam ? serverTeamView(user.selectedTeam) : null,
    selected_team_id: user.selectedTeamId,
    server_metadata: (user.serverMetadata ?? null) as Json,
    signed_up_at_millis: user.signedUpAt.getTime(),
  };
}

/**
 * The view as JSON text, kept per cached user record: records are replaced,
 * never changed, when the user is written, and a project's config likewise,
 * so a signed-in user reading themselves again costs no serialization.
 */
const serialized = new WeakMap<UserRecord, { config: ProjectConfig; client?: string; server?: string }>();

export function userViewJson(user: UserRecord, config: ProjectConfig, level: "client" | "server"): string {
  let entry = serialized.get(user);
  if (!entry || entry.config !== config) serialized.set(user, (entry = { config }));
  return (entry[level] ??= JSON.stringify(level === "client" ? clientUserView(user, config) : serverUserView(user, config)));
}
