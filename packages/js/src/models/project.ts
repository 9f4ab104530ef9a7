import type { ClientProjectJson } from "./json.ts";

/** A project's public settings, as any client may read them. */
export interface Project {
  readonly id: string;
  readonly displayName: string;
  /** The project's square mark (shown beside its name on the sign-in pages), or null. */
  readonly logoUrl: string | null;
  /** The project's mark with its wordmark (shown in place of the name on the sign-in pages), or null. */
  readonly logoFullUrl: string | null;
  readonly config: {
    readonly signUpEnabled: boolean;
    readonly credentialEnabled: boolean;
    readonly magicLinkEnabled: boolean;
    readonly passkeyEnabled: boolean;
    readonly clientTeamCreationEnabled: boolean;
    readonly clientUserDeletionEnabled: boolean;
    readonly allowUserApiKeys: boolean;
    readonly allowTeamApiKeys: boolean;
    readonly oauthProviders: readonly { id: string }[];
  };
}

export function projectFromJson(json: ClientProjectJson): Project {
  const c = json.config;
  return {
    id: json.id,
    displayName: json.display_name,
    logoUrl: json.logo_url,
    logoFullUrl: json.logo_full_url,
    config: {
      signUpEnabled: c.sign_up_enabled,
      credentialEnabled: c.credential_enabled,
      magicLinkEnabled: c.magic_link_enabled,
      passkeyEnabled: c.passkey_enabled,
      clientTeamCreationEnabled: c.client_team_creation_enabled,
      clientUserDeletionEnabled: c.client_user_deletion_enabled,
      allowUserApiKeys: c.allow_user_api_keys,
      allowTeamApiKeys: c.allow_team_api_keys,
      oauthProviders: c.enabled_oauth_providers.map((p) => ({ id: p.id })),
    },
  };
}
