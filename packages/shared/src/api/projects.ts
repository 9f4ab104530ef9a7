/**
 * Projects: the public (client) view any caller may read with
 * `GET /projects/current`, and the admin view of the /internal/projects
 * endpoints.
 */
import { z } from "zod";
import { DISPLAY_NAME_MAX_LENGTH, OAUTH_ACCOUNT_MERGE_STRATEGIES, OAUTH_PROVIDER_IDS } from "../constants.ts";
import { KnownErrors } from "../known-errors/index.ts";
import { displayNameSchema, domainPatternSchema, logoUrlSchema, serverEmailSchema, uuidSchema } from "../schema-fields.ts";
import { defineEndpoint } from "./endpoint.ts";
import { listJson, successJson } from "./json.ts";

export const trustedDomainJson = z.strictObject({ domain: z.string(), handler_path: z.string() });
export type TrustedDomainJson = z.infer<typeof trustedDomainJson>;

/**
 * The settings a client needs to show the right sign-in options.
 * `enabled_oauth_providers` lists only the providers sign-in can use on this
 * server (a `shared` entry needs the operator's keys), so no page shows a
 * button that can only fail; the admin view lists every entry.
 */
export const clientProjectConfigJson = z.strictObject({
  allow_team_api_keys: z.boolean(),
  allow_user_api_keys: z.boolean(),
  client_team_creation_enabled: z.boolean(),
  client_user_deletion_enabled: z.boolean(),
  credential_enabled: z.boolean(),
  domains: z.array(trustedDomainJson),
  enabled_oauth_providers: z.array(z.strictObject({ id: z.string() })),
  magic_link_enabled: z.boolean(),
  passkey_enabled: z.boolean(),
  sign_up_enabled: z.boolean(),
});
export type ClientProjectConfigJson = z.infer<typeof clientProjectConfigJson>;

/** A project's logos, as the admin view names them; the client view carries the two the sign-in pages show. */
const logoUrls = {
  logo_dark_mode_url: z.string().nullable(),
  logo_full_dark_mode_url: z.string().nullable(),
  logo_full_url: z.string().nullable(),
  logo_url: z.string().nullable(),
};

/** `logo_url` and `logo_full_url` are Latchkey's additions to the wire contract (README, "Latchkey extensions and differences"). */
export const clientProjectJson = z.strictObject({
  config: clientProjectConfigJson,
  display_name: z.string(),
  id: z.string(),
  logo_full_url: logoUrls.logo_full_url,
  logo_url: logoUrls.logo_url,
});
export type ClientProjectJson = z.infer<typeof clientProjectJson>;

// ---------------------------------------------------------------------------
// The admin view of a project and the /internal/projects endpoints: the
// project's owners (client users of the internal project) list, create and
// transfer projects; a project's admins read, change and delete it.

/** A project's e-mail server: the shared one, or the project's own SMTP server. */
export const emailConfigSchema = z.discriminatedUnion("type", [
  z.strictObject({ type: z.literal("shared") }),
  z.strictObject({
    type: z.literal("standard"),
    host: z.string().min(1),
    port: z.number().int().min(0).max(65535),
    username: z.string(),
    password: z.string(),
    sender_name: z.string().min(1),
    /** Held to the looser server-side form (schema-fields.ts), as the reference: a TLD with digits is fine. */
    sender_email: serverEmailSchema,
  }),
]);
export type EmailConfigJson = z.infer<typeof emailConfigSchema>;

/**
 * How the admin view shows a standard provider's client_secret (it is stored
 * encrypted and never returned in full): eight `*` then the secret's last four
 * characters, or only the eight `*` when the secret is shorter than twelve.
 * Sending the masked value back in a PATCH (or omitting client_secret for a
 * provider that already has one) keeps the stored secret.
 */
export const OAUTH_CLIENT_SECRET_MASK_PREFIX = "********";

export function maskOAuthClientSecret(secret: string): string {
  return secret.length >= 12 ? OAUTH_CLIENT_SECRET_MASK_PREFIX + secret.slice(-4) : OAUTH_CLIENT_SECRET_MASK_PREFIX;
}

/** One OAuth provider of a project; a `standard` one brings the project's own OAuth app. */
export const oauthProviderConfigSchema = z.strictObject({
  id: z.enum(OAUTH_PROVIDER_IDS),
  type: z.enum(["shared", "standard"]),
  client_id: z.string().optional(),
  client_secret: z.string().optional(),
  facebook_config_id: z.string().optional(),
  microsoft_tenant_id: z.string().optional(),
  apple_bundle_ids: z.array(z.string()).optional(),
});
export type OAuthProviderConfigJson = z.infer<typeof oauthProviderConfigSchema>;

const permissionIdsJson = z.array(z.strictObject({ id: z.string() }));

export const adminProjectConfigJson = z.strictObject({
  allow_localhost: z.boolean(),
  allow_team_api_keys: z.boolean(),
  allow_user_api_keys: z.boolean(),
  client_team_creation_enabled: z.boolean(),
  client_user_deletion_enabled: z.boolean(),
  create_team_on_sign_up: z.boolean(),
  credential_enabled: z.boolean(),
  domains: z.array(z.strictObject({ domain: z.string(), handler_path: z.string() })),
  email_config: emailConfigSchema,
  email_theme: z.string(),
  enabled_oauth_providers: z.array(z.strictObject({ id: z.string() })),
  magic_link_enabled: z.boolean(),
  oauth_account_merge_strategy: z.enum(OAUTH_ACCOUNT_MERGE_STRATEGIES),
  /** Sorted by id; `provider_config_id` repeats the id. */
  oauth_providers: z.array(oauthProviderConfigSchema.extend({ provider_config_id: z.string() })),
  passkey_enabled: z.boolean(),
  sign_up_enabled: z.boolean(),
  team_creator_default_permissions: permissionIdsJson,
  team_member_default_permissions: permissionIdsJson,
  user_default_permissions: permissionIdsJson,
});
export type AdminProjectConfigJson = z.infer<typeof adminProjectConfigJson>;

export const adminProjectJson = z.strictObject({
  config: adminProjectConfigJson,
  created_at_millis: z.number(),
  description: z.string(),
  display_name: z.string(),
  id: z.string(),
  is_production_mode: z.boolean(),
  ...logoUrls,
  onboarding_status: z.string(),
  owner_team_id: z.string().nullable(),
});
export type AdminProjectJson = z.infer<typeof adminProjectJson>;

const permissionIdsBody = z.array(z.strictObject({ id: z.string().regex(/^\$?[a-z0-9_:]+$/) }));

/** The settings an admin may change; each is optional. `require_email_verification` is written here but not shown. */
export const projectConfigPatchBody = z.strictObject({
  allow_localhost: z.boolean().optional(),
  sign_up_enabled: z.boolean().optional(),
  credential_enabled: z.boolean().optional(),
  magic_link_enabled: z.boolean().optional(),
  passkey_enabled: z.boolean().optional(),
  client_team_creation_enabled: z.boolean().optional(),
  client_user_deletion_enabled: z.boolean().optional(),
  allow_user_api_keys: z.boolean().optional(),
  allow_team_api_keys: z.boolean().optional(),
  create_team_on_sign_up: z.boolean().optional(),
  require_email_verification: z.boolean().optional(),
  oauth_account_merge_strategy: z.enum(OAUTH_ACCOUNT_MERGE_STRATEGIES).optional(),
  oauth_providers: z
    .array(
      // client_secret may be left out for a standard provider that already has one (see maskOAuthClientSecret).
      oauthProviderConfigSchema.refine((p) => p.type === "shared" || (Boolean(p.client_id) && p.client_secret !== ""), {
        message: "needs client_id and client_secret when type is standard",
      }),
    )
    .refine((list) => new Set(list.map((p) => p.id)).size === list.length, { message: "must not list a provider twice" })
    .optional(),
  email_config: emailConfigSchema.optional(),
  email_theme: uuidSchema.optional(),
  domains: z
    .array(
      z.strictObject({
        domain: domainPatternSchema,
        handler_path: z.string().refine((p) => p.startsWith("/"), { message: "must start with '/'" }),
      }),
    )
    .optional(),
  team_creator_default_permissions: permissionIdsBody.optional(),
  team_member_default_permissions: permissionIdsBody.optional(),
  user_default_permissions: permissionIdsBody.optional(),
});
export type ProjectConfigPatchBody = z.input<typeof projectConfigPatchBody>;
/** A config patch as validated. */
export type ProjectConfigPatch = z.output<typeof projectConfigPatchBody>;

const nullableUrl = logoUrlSchema.nullable().optional();

export const projectPatchBody = z.strictObject({
  display_name: z.string().min(1).max(DISPLAY_NAME_MAX_LENGTH).optional(),
  description: displayNameSchema.optional(),
  is_production_mode: z.boolean().optional(),
  logo_url: nullableUrl,
  logo_full_url: nullableUrl,
  logo_dark_mode_url: nullableUrl,
  logo_full_dark_mode_url: nullableUrl,
  config: projectConfigPatchBody.optional(),
});
export type ProjectPatchBody = z.input<typeof projectPatchBody>;

export const projectCreateBody = projectPatchBody.extend({
  display_name: z.string().min(1).max(DISPLAY_NAME_MAX_LENGTH),
  owner_team_id: uuidSchema,
});
export type ProjectCreateBody = z.input<typeof projectCreateBody>;

export const projectTransferBody = z.strictObject({ project_id: uuidSchema, new_team_id: uuidSchema });

/** What a transfer answers: `success` is the text `"true"` here, unlike the `{success: true}` of a delete. */
export const projectTransferJson = z.strictObject({ success: z.literal("true") });
export const PROJECT_TRANSFERRED = Object.freeze({ success: "true" as const });

/** One thing that keeps a project out of production mode, and where in the dashboard it is fixed: the page, anchored at the setting. */
export const productionModeErrorJson = z.strictObject({ message: z.string(), relative_fix_url: z.string() });
export type ProductionModeErrorJson = z.infer<typeof productionModeErrorJson>;

/**
 * The owner routes take any access type on the internal project, as long as a
 * user is signed in; this is what they answer when that is not so.
 */
const OWNER_ERRORS = [KnownErrors.ExpectedInternalProject, KnownErrors.UserAuthenticationRequired] as const;

export const internalProjectsEndpoints = {
  listOwnedProjects: defineEndpoint({
    method: "GET",
    path: "/internal/projects",
    summary: "Projects owned by the signed-in owner's teams",
    tags: ["Projects"],
    access: ["client", "server", "admin"],
    response: listJson(adminProjectJson),
    errors: OWNER_ERRORS,
  }),
  createProject: defineEndpoint({
    method: "POST",
    path: "/internal/projects",
    summary: "Create a project owned by one of the signed-in owner's teams",
    tags: ["Projects"],
    access: ["client", "server", "admin"],
    body: projectCreateBody,
    status: 201,
    response: adminProjectJson,
    errors: [...OWNER_ERRORS, KnownErrors.TeamMembershipNotFound],
  }),
  transferProject: defineEndpoint({
    method: "POST",
    path: "/internal/projects/transfer",
    summary: "Transfer a project to another team of the owner",
    tags: ["Projects"],
    access: ["client", "server", "admin"],
    body: projectTransferBody,
    response: projectTransferJson,
    errors: [...OWNER_ERRORS, KnownErrors.ProjectNotFound, KnownErrors.TeamMembershipNotFound, KnownErrors.TeamPermissionRequired],
  }),
  getAdminProject: defineEndpoint({
    method: "GET",
    path: "/internal/projects/current",
    summary: "The current project with its whole configuration",
    tags: ["Projects"],
    access: ["admin"],
    response: adminProjectJson,
  }),
  updateAdminProject: defineEndpoint({
    method: "PATCH",
    path: "/internal/projects/current",
    summary: "Update the current project and its configuration",
    tags: ["Projects"],
    access: ["admin"],
    body: projectPatchBody,
    response: adminProjectJson,
    errors: [KnownErrors.CurrentProjectNotFound],
  }),
  getProductionModeErrors: defineEndpoint({
    method: "GET",
    path: "/internal/projects/current/production-mode-errors",
    summary:
      "What must change before the current project can be switched to production mode (errors, empty when nothing), and what is only unwise there (warnings)",
    tags: ["Projects"],
    access: ["admin"],
    response: z.strictObject({ errors: z.array(productionModeErrorJson), warnings: z.array(productionModeErrorJson) }),
  }),
  deleteAdminProject: defineEndpoint({
    method: "DELETE",
    path: "/internal/projects/current",
    summary: "Delete the current project and everything in it",
    tags: ["Projects"],
    access: ["admin"],
    response: successJson,
  }),
};

export const projectsEndpoints = {
  getCurrentProject: defineEndpoint({
    method: "GET",
    path: "/projects/current",
    summary: "The current project as clients see it",
    tags: ["Projects"],
    access: ["client", "server", "admin"],
    response: clientProjectJson,
  }),
};
