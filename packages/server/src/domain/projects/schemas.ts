/** Request shapes for project creation and admin updates (WIRE §2.4). */
import { displayNameSchema, domainPatternSchema, urlSchema, uuidSchema, OAUTH_ACCOUNT_MERGE_STRATEGIES } from "@latchkey/shared";
import { z } from "zod";
import { emailConfigSchema, oauthProviderConfigSchema, type ProjectConfig } from "./config.ts";

const permissionList = z.array(z.object({ id: z.string().regex(/^\$?[a-z0-9_:]+$/) }).strict());

export const configPatchSchema = z
  .object({
    allow_localhost: z.boolean(),
    sign_up_enabled: z.boolean(),
    credential_enabled: z.boolean(),
    magic_link_enabled: z.boolean(),
    passkey_enabled: z.boolean(),
    client_team_creation_enabled: z.boolean(),
    client_user_deletion_enabled: z.boolean(),
    allow_user_api_keys: z.boolean(),
    allow_team_api_keys: z.boolean(),
    create_team_on_sign_up: z.boolean(),
    require_email_verification: z.boolean(),
    oauth_account_merge_strategy: z.enum(OAUTH_ACCOUNT_MERGE_STRATEGIES),
    oauth_providers: z
      .array(
        oauthProviderConfigSchema
          .strict()
          .refine((p) => p.type === "shared" || (Boolean(p.client_id) && Boolean(p.client_secret)), {
            message: "needs client_id and client_secret when type is standard",
          }),
      )
      .refine((list) => new Set(list.map((p) => p.id)).size === list.length, { message: "must not list a provider twice" }),
    email_config: emailConfigSchema,
    email_theme: uuidSchema,
    domains: z.array(
      z
        .object({
          domain: domainPatternSchema,
          handler_path: z.string().refine((p) => p.startsWith("/"), { message: "must start with '/'" }),
        })
        .strict(),
    ),
    team_creator_default_permissions: permissionList,
    team_member_default_permissions: permissionList,
    user_default_permissions: permissionList,
  })
  .partial()
  .strict();

const nullableUrl = urlSchema.nullable().optional();

export const projectPatchSchema = z
  .object({
    display_name: z.string().min(1).max(256).optional(),
    description: displayNameSchema.optional(),
    is_production_mode: z.boolean().optional(),
    logo_url: nullableUrl,
    logo_full_url: nullableUrl,
    logo_dark_mode_url: nullableUrl,
    logo_full_dark_mode_url: nullableUrl,
    config: configPatchSchema.optional(),
  })
  .strict();

export const projectCreateSchema = projectPatchSchema.extend({
  display_name: z.string().min(1).max(256),
  owner_team_id: uuidSchema,
});

export type ConfigPatch = z.output<typeof configPatchSchema>;

export function applyConfigPatch(config: ProjectConfig, patch: ConfigPatch | undefined): ProjectConfig {
  if (!patch) return config;
  const next = { ...config };
  for (const [key, value] of Object.entries(patch)) {
    if (value !== undefined) (next as Record<string, unknown>)[key] = value;
  }
  return next;
}
