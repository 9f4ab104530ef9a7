/**
 * Project configuration, stored as one JSONB document in the admin wire shape
 * (WIRE §2.4) so reading it back needs no mapping.
 */
import { DEFAULT_EMAIL_THEME_ID, OAUTH_ACCOUNT_MERGE_STRATEGIES, OAUTH_PROVIDER_IDS, emailSchema } from "@latchkey/shared";
import { z } from "zod";

export const oauthProviderConfigSchema = z.object({
  id: z.enum(OAUTH_PROVIDER_IDS),
  type: z.enum(["shared", "standard"]),
  client_id: z.string().optional(),
  client_secret: z.string().optional(),
  facebook_config_id: z.string().optional(),
  microsoft_tenant_id: z.string().optional(),
  apple_bundle_ids: z.array(z.string()).optional(),
});

export const emailConfigSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("shared") }).strict(),
  z
    .object({
      type: z.literal("standard"),
      host: z.string().min(1),
      port: z.number().int().min(0).max(65535),
      username: z.string(),
      password: z.string(),
      sender_name: z.string().min(1),
      sender_email: emailSchema,
    })
    .strict(),
]);

export type OAuthProviderConfig = z.infer<typeof oauthProviderConfigSchema>;
export type EmailConfig = z.infer<typeof emailConfigSchema>;

export interface ProjectConfig {
  allow_localhost: boolean;
  sign_up_enabled: boolean;
  credential_enabled: boolean;
  magic_link_enabled: boolean;
  passkey_enabled: boolean;
  client_team_creation_enabled: boolean;
  client_user_deletion_enabled: boolean;
  allow_user_api_keys: boolean;
  allow_team_api_keys: boolean;
  create_team_on_sign_up: boolean;
  require_email_verification: boolean;
  require_publishable_client_key: boolean;
  oauth_account_merge_strategy: (typeof OAUTH_ACCOUNT_MERGE_STRATEGIES)[number];
  oauth_providers: OAuthProviderConfig[];
  email_config: EmailConfig;
  email_theme: string;
  domains: { domain: string; handler_path: string }[];
  team_creator_default_permissions: { id: string }[];
  team_member_default_permissions: { id: string }[];
  user_default_permissions: { id: string }[];
}

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

/** The internal project: where project owners sign up (WIRE §4). */
export function internalProjectConfig(): ProjectConfig {
  return {
    ...defaultProjectConfig(),
    magic_link_enabled: true,
    create_team_on_sign_up: true,
    client_team_creation_enabled: true,
    oauth_providers: (["github", "google", "microsoft", "spotify"] as const).map((id) => ({ id, type: "shared" })),
  };
}
