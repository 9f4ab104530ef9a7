/**
 * Users: the user object per access level, the bodies that create and update
 * one, and the /users endpoints. Sign-up and sign-in live with the auth
 * endpoints; a user's contact channels and sessions in their own modules.
 */
import { z } from "zod";
import { PASSWORD_MAX_LENGTH } from "../constants.ts";
import { KnownErrors } from "../known-errors/index.ts";
import {
  totpSecretBase64Schema,
  displayNameSchema,
  emailSchema,
  metadataSchema,
  clientProfileImageUrlSchema,
  passwordHashSchema,
  profileImageUrlSchema,
  serverEmailSchema,
  uuidSchema,
} from "../schema-fields.ts";
import { defineEndpoint } from "./endpoint.ts";
import { booleanQuery, paginatedListJson, successJson } from "./json.ts";
import { clientTeamJson, serverTeamJson } from "./teams.ts";
import { jsonSchema } from "./json.ts";

export const userOAuthProviderJson = z.strictObject({
  account_id: z.string(),
  email: z.string().nullable(),
  id: z.string(),
});
export type UserOAuthProviderJson = z.infer<typeof userOAuthProviderJson>;

export const restrictedReasonJson = z.strictObject({ type: z.enum(["anonymous", "email_not_verified", "restricted_by_administrator"]) });
export type RestrictedReasonJson = z.infer<typeof restrictedReasonJson>;

/** The fields both views share. */
const userFields = {
  auth_with_email: z.boolean(),
  client_metadata: jsonSchema,
  client_read_only_metadata: jsonSchema,
  display_name: z.string().nullable(),
  has_password: z.boolean(),
  id: z.string(),
  is_anonymous: z.boolean(),
  is_restricted: z.boolean(),
  oauth_providers: z.array(userOAuthProviderJson),
  otp_auth_enabled: z.boolean(),
  passkey_auth_enabled: z.boolean(),
  primary_email: z.string().nullable(),
  primary_email_verified: z.boolean(),
  profile_image_url: z.string().nullable(),
  requires_totp_mfa: z.boolean(),
  restricted_by_admin: z.boolean(),
  restricted_by_admin_reason: z.string().nullable(),
  restricted_reason: restrictedReasonJson.nullable(),
  selected_team_id: z.string().nullable(),
  signed_up_at_millis: z.number(),
};

/** The signed-in user as a client sees them (`GET /users/me` with client access). */
export const clientUserJson = z.strictObject({
  ...userFields,
  selected_team: clientTeamJson.nullable(),
});
export type ClientUserJson = z.infer<typeof clientUserJson>;

/** Any user as a server (or admin) sees them. */
export const serverUserJson = z.strictObject({
  ...userFields,
  country_code: z.string().nullable(),
  last_active_at_millis: z.number(),
  primary_email_auth_enabled: z.boolean(),
  restricted_by_admin_private_details: z.string().nullable(),
  risk_scores: z.strictObject({ sign_up: z.strictObject({ bot: z.number(), free_trial_abuse: z.number() }) }),
  selected_team: serverTeamJson.nullable(),
  server_metadata: jsonSchema,
});
export type ServerUserJson = z.infer<typeof serverUserJson>;

/** Every field a server may write on a user. */
export const serverUserPatchBody = z.strictObject({
  display_name: displayNameSchema.optional(),
  profile_image_url: profileImageUrlSchema.optional(),
  client_metadata: metadataSchema.optional(),
  selected_team_id: uuidSchema.nullable().optional(),
  totp_secret_base64: totpSecretBase64Schema.nullable().optional(),
  otp_auth_enabled: z.boolean().optional(),
  passkey_auth_enabled: z.boolean().optional(),
  /** Server writes take the looser form (schema-fields.ts); a client changing its own address the strict one. */
  primary_email: serverEmailSchema.nullable().optional(),
  client_read_only_metadata: metadataSchema.optional(),
  server_metadata: metadataSchema.optional(),
  primary_email_verified: z.boolean().optional(),
  primary_email_auth_enabled: z.boolean().optional(),
  /** No minimum length for a server's write, as the reference: the minimum is for users choosing their own. */
  password: z.string().min(1).max(PASSWORD_MAX_LENGTH).nullable().optional(),
  password_hash: passwordHashSchema.optional(),
  /** A user may leave anonymity, never enter it: the reference accepts `false` alone here (POST /users takes either). */
  is_anonymous: z.literal(false).optional(),
  restricted_by_admin: z.boolean().optional(),
  restricted_by_admin_reason: z.string().nullable().optional(),
  restricted_by_admin_private_details: z.string().nullable().optional(),
  country_code: z.string().length(2).nullable().optional(),
});
export type ServerUserPatchBody = z.input<typeof serverUserPatchBody>;
/** A server patch as validated (display names normalized). */
export type ServerUserPatch = z.output<typeof serverUserPatchBody>;

/** What the signed-in user may change about themselves. */
export const clientUserPatchBody = serverUserPatchBody
  .pick({
    display_name: true,
    client_metadata: true,
    selected_team_id: true,
    totp_secret_base64: true,
    otp_auth_enabled: true,
    passkey_auth_enabled: true,
    primary_email: true,
  })
  .extend({ profile_image_url: clientProfileImageUrlSchema.optional(), primary_email: emailSchema.nullable().optional() });
export type ClientUserPatchBody = z.input<typeof clientUserPatchBody>;

export const serverUserCreateBody = serverUserPatchBody.extend({
  is_anonymous: z.boolean().optional(),
  oauth_providers: z
    .array(z.strictObject({ id: z.string(), account_id: z.string(), email: serverEmailSchema.nullable().optional() }))
    .optional(),
});
export type ServerUserCreateBody = z.input<typeof serverUserCreateBody>;
export type ServerUserCreate = z.output<typeof serverUserCreateBody>;

const listUsersFields = z.strictObject({
  cursor: uuidSchema.optional(),
  limit: z.coerce.number().int().min(1).max(1000).optional(),
  desc: booleanQuery.optional(),
  /** `last_active_at` is a Latchkey extension; ties are broken by user id under either order. */
  order_by: z.enum(["signed_up_at", "last_active_at"]).optional(),
  query: z.string().optional(),
  include_anonymous: booleanQuery.optional(),
  /** A Latchkey extension: anonymous users alone; asked for together with include_anonymous=true. */
  only_anonymous: booleanQuery.optional(),
  team_id: uuidSchema.optional(),
});

/** Anonymous users alone are a subset of the list with anonymous users, so asking for them means asking for those too. */
function onlyAnonymousNeedsInclude(query: { include_anonymous?: boolean; only_anonymous?: boolean }, ctx: z.RefinementCtx): void {
  if (query.only_anonymous && !query.include_anonymous) {
    ctx.addIssue({ code: "custom", path: ["only_anonymous"], message: "requires include_anonymous=true" });
  }
}

export const listUsersQuery = listUsersFields.superRefine(onlyAnonymousNeedsInclude);

/** The filters and order of a user list, without its paging: what an export of the list takes, plus its format. */
export const exportUsersQuery = listUsersFields
  .omit({ cursor: true, limit: true })
  .extend({ format: z.enum(["csv", "json"]) })
  .superRefine(onlyAnonymousNeedsInclude);
export type ExportUsersQuery = z.input<typeof exportUsersQuery>;

const userParams = z.strictObject({ user_id: uuidSchema });
/** An anonymous user is found by id only when asked for, as the reference answers. */
const getUserQuery = z.strictObject({ include_anonymous: booleanQuery.optional() });
const ALL = ["client", "server", "admin"] as const;
const SERVER = ["server", "admin"] as const;
const PASSWORD_ERRORS = [KnownErrors.PasswordTooShort, KnownErrors.PasswordTooLong] as const;
const PATCH_ERRORS = [
  KnownErrors.TeamNotFound,
  KnownErrors.TeamMembershipNotFound,
  KnownErrors.UserWithEmailAlreadyExists,
  ...PASSWORD_ERRORS,
] as const;

export const usersEndpoints = {
  listUsers: defineEndpoint({
    method: "GET",
    path: "/users",
    summary: "List users, ascending by sign-up time unless desc=true",
    tags: ["Users"],
    access: SERVER,
    query: listUsersQuery,
    response: paginatedListJson(serverUserJson),
  }),
  exportUsers: defineEndpoint({
    method: "GET",
    path: "/internal/users/export",
    summary: "The users a list's filters select, streamed as CSV or as a JSON array of server user objects",
    tags: ["Users"],
    access: ["admin"],
    query: exportUsersQuery,
    responseType: "text",
    response: z.string(),
  }),
  createUser: defineEndpoint({
    method: "POST",
    path: "/users",
    summary: "Create a user (server access can always create users)",
    tags: ["Users"],
    access: SERVER,
    body: serverUserCreateBody,
    status: 201,
    response: serverUserJson,
    errors: [KnownErrors.TeamNotFound, KnownErrors.UserWithEmailAlreadyExists, ...PASSWORD_ERRORS],
  }),
  getCurrentUser: defineEndpoint({
    method: "GET",
    path: "/users/me",
    summary: "The signed-in user",
    tags: ["Users"],
    access: ALL,
    response: serverUserJson,
    clientResponse: clientUserJson,
    errors: [KnownErrors.CannotGetOwnUserWithoutUser],
  }),
  updateCurrentUser: defineEndpoint({
    method: "PATCH",
    path: "/users/me",
    summary: "Update the signed-in user",
    tags: ["Users"],
    access: ALL,
    body: serverUserPatchBody,
    clientBody: clientUserPatchBody,
    response: serverUserJson,
    clientResponse: clientUserJson,
    errors: [KnownErrors.CannotGetOwnUserWithoutUser, ...PATCH_ERRORS],
  }),
  deleteCurrentUser: defineEndpoint({
    method: "DELETE",
    path: "/users/me",
    summary: "Delete the signed-in user (with client access, only where the project allows it)",
    tags: ["Users"],
    access: ALL,
    response: successJson,
    errors: [KnownErrors.CannotGetOwnUserWithoutUser],
  }),
  getUser: defineEndpoint({
    method: "GET",
    path: "/users/:user_id",
    summary: "Get a user",
    tags: ["Users"],
    access: SERVER,
    params: userParams,
    query: getUserQuery,
    response: serverUserJson,
    errors: [KnownErrors.UserNotFound],
  }),
  updateUser: defineEndpoint({
    method: "PATCH",
    path: "/users/:user_id",
    summary: "Update a user",
    tags: ["Users"],
    access: SERVER,
    params: userParams,
    body: serverUserPatchBody,
    response: serverUserJson,
    errors: [KnownErrors.UserNotFound, ...PATCH_ERRORS],
  }),
  deleteUser: defineEndpoint({
    method: "DELETE",
    path: "/users/:user_id",
    summary: "Delete a user, with their sessions and contact channels",
    tags: ["Users"],
    access: SERVER,
    params: userParams,
    response: successJson,
    errors: [KnownErrors.UserNotFound],
  }),
};
