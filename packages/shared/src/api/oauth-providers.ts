/**
 * A user's OAuth provider accounts (/oauth-providers): the accounts they sign
 * in with (`allow_sign_in`: one per provider) and the ones whose provider
 * tokens the app may use (`allow_connected_accounts`: any number). `id` is
 * the account's own id; `provider_config_id` the project's provider entry.
 * A client may read and change only its own user's accounts, and only the
 * two flags; a server also sees and sets the provider's account id.
 */
import { z } from "zod";
import { KnownErrors } from "../known-errors/index.ts";
import { emailSchema, userIdOrMeSchema, uuidSchema } from "../schema-fields.ts";
import { defineEndpoint } from "./endpoint.ts";
import { listJson, successJson } from "./json.ts";

const providerAccountFields = {
  allow_connected_accounts: z.boolean(),
  allow_sign_in: z.boolean(),
  /** Omitted when the provider gave none. */
  email: z.string().optional(),
  id: z.string(),
  provider_config_id: z.string(),
  /** The provider (google, github, …). */
  type: z.string(),
  user_id: z.string(),
};

export const clientOAuthProviderJson = z.strictObject(providerAccountFields);
export type ClientOAuthProviderJson = z.infer<typeof clientOAuthProviderJson>;

export const serverOAuthProviderJson = z.strictObject({
  /** The user's id at the provider. */
  account_id: z.string(),
  ...providerAccountFields,
});
export type ServerOAuthProviderJson = z.infer<typeof serverOAuthProviderJson>;

export const oauthProviderCreateBody = z.strictObject({
  user_id: userIdOrMeSchema,
  provider_config_id: z.string(),
  account_id: z.string().min(1),
  email: emailSchema.optional(),
  allow_sign_in: z.boolean(),
  allow_connected_accounts: z.boolean(),
});
export type OAuthProviderCreateBody = z.input<typeof oauthProviderCreateBody>;
export type OAuthProviderCreate = z.output<typeof oauthProviderCreateBody>;

export const serverOAuthProviderPatchBody = z.strictObject({
  allow_sign_in: z.boolean().optional(),
  allow_connected_accounts: z.boolean().optional(),
  email: emailSchema.optional(),
  account_id: z.string().min(1).optional(),
});
export type ServerOAuthProviderPatchBody = z.input<typeof serverOAuthProviderPatchBody>;
export type ServerOAuthProviderPatch = z.output<typeof serverOAuthProviderPatchBody>;

export const clientOAuthProviderPatchBody = serverOAuthProviderPatchBody.pick({ allow_sign_in: true, allow_connected_accounts: true });
export type ClientOAuthProviderPatchBody = z.input<typeof clientOAuthProviderPatchBody>;

const accountParams = z.strictObject({ user_id: userIdOrMeSchema, provider_id: uuidSchema });
const ALL = ["client", "server", "admin"] as const;
const TAGS = ["OAuth providers"];
/** Naming a user (`me` or an id) that is not there. */
const USER_ERRORS = [KnownErrors.CannotGetOwnUserWithoutUser, KnownErrors.UserNotFound] as const;

export const oauthProvidersEndpoints = {
  listOAuthProviders: defineEndpoint({
    method: "GET",
    path: "/oauth-providers",
    summary: "List a user's OAuth provider accounts (a server naming no user: everyone's), oldest first",
    tags: TAGS,
    access: ALL,
    query: z.strictObject({ user_id: userIdOrMeSchema.optional() }),
    response: listJson(serverOAuthProviderJson),
    clientResponse: listJson(clientOAuthProviderJson),
    errors: USER_ERRORS,
  }),
  createOAuthProvider: defineEndpoint({
    method: "POST",
    path: "/oauth-providers",
    summary: "Add an OAuth provider account to a user",
    tags: TAGS,
    access: ["server", "admin"],
    body: oauthProviderCreateBody,
    status: 201,
    response: serverOAuthProviderJson,
    errors: [...USER_ERRORS, KnownErrors.OAuthProviderAccountIdAlreadyUsedForSignIn],
  }),
  getOAuthProvider: defineEndpoint({
    method: "GET",
    path: "/oauth-providers/:user_id/:provider_id",
    summary: "Get one of a user's OAuth provider accounts",
    tags: TAGS,
    access: ALL,
    params: accountParams,
    response: serverOAuthProviderJson,
    clientResponse: clientOAuthProviderJson,
    errors: USER_ERRORS,
  }),
  updateOAuthProvider: defineEndpoint({
    method: "PATCH",
    path: "/oauth-providers/:user_id/:provider_id",
    summary: "Change whether an OAuth provider account signs in and is a connected account",
    tags: TAGS,
    access: ALL,
    params: accountParams,
    body: serverOAuthProviderPatchBody,
    clientBody: clientOAuthProviderPatchBody,
    response: serverOAuthProviderJson,
    clientResponse: clientOAuthProviderJson,
    errors: [...USER_ERRORS, KnownErrors.OAuthProviderAccountIdAlreadyUsedForSignIn],
  }),
  deleteOAuthProvider: defineEndpoint({
    method: "DELETE",
    path: "/oauth-providers/:user_id/:provider_id",
    summary: "Remove an OAuth provider account from a user (with its provider tokens)",
    tags: TAGS,
    access: ALL,
    params: accountParams,
    response: successJson,
    errors: USER_ERRORS,
  }),
};
