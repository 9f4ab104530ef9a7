/**
 * Connected accounts: an app asks for a user's access token at an OAuth
 * provider they linked (`allow_connected_accounts`), to call the provider's
 * API as them. A client may ask only for its own user; a server for any user
 * of the project.
 */
import { z } from "zod";
import { KnownErrors } from "../known-errors/index.ts";
import { userIdOrMeSchema } from "../schema-fields.ts";
import { defineEndpoint } from "./endpoint.ts";
import { listJson } from "./json.ts";

export const connectedAccountAccessTokenBody = z.strictObject({
  /** Scopes the token must carry, space-separated. */
  scope: z.string().optional(),
});
export type ConnectedAccountAccessTokenBody = z.input<typeof connectedAccountAccessTokenBody>;

export const connectedAccountAccessTokenJson = z.strictObject({ access_token: z.string() });
export type ConnectedAccountAccessTokenJson = z.infer<typeof connectedAccountAccessTokenJson>;

/** One of a user's provider accounts the app may use (`allow_connected_accounts`). */
export const connectedAccountJson = z.strictObject({
  /** The project's provider entry (`github`, `google`, …). */
  provider: z.string(),
  /** The user's id at the provider. */
  provider_account_id: z.string(),
  user_id: z.string(),
});
export type ConnectedAccountJson = z.infer<typeof connectedAccountJson>;

export const connectedAccountListJson = listJson(connectedAccountJson);

const ACCESS_TOKEN_ERRORS = [
  KnownErrors.CannotGetOwnUserWithoutUser,
  KnownErrors.OAuthProviderNotFoundOrNotEnabled,
  KnownErrors.OAuthAccessTokenNotAvailableWithSharedOAuthKeys,
  KnownErrors.OAuthConnectionNotConnectedToUser,
  KnownErrors.OAuthConnectionDoesNotHaveRequiredScope,
] as const;

export const connectedAccountsEndpoints = {
  listConnectedAccounts: defineEndpoint({
    method: "GET",
    path: "/connected-accounts/:user_id",
    summary: "List a user's connected accounts (provider accounts the app may use)",
    tags: ["Connected accounts"],
    access: ["client", "server", "admin"],
    params: z.strictObject({ user_id: userIdOrMeSchema }),
    response: connectedAccountListJson,
    errors: [KnownErrors.CannotGetOwnUserWithoutUser],
  }),
  createConnectedAccountAccessTokenByAccount: defineEndpoint({
    method: "POST",
    path: "/connected-accounts/:user_id/:provider_id/:provider_account_id/access-token",
    summary: "Get an access token for one of a user's connected accounts at an OAuth provider",
    tags: ["Connected accounts"],
    access: ["client", "server", "admin"],
    params: z.strictObject({ user_id: userIdOrMeSchema, provider_id: z.string(), provider_account_id: z.string() }),
    body: connectedAccountAccessTokenBody,
    status: 201,
    response: connectedAccountAccessTokenJson,
    errors: ACCESS_TOKEN_ERRORS,
  }),
  createConnectedAccountAccessToken: defineEndpoint({
    method: "POST",
    path: "/connected-accounts/:user_id/:provider_id/access-token",
    summary: "Get an access token for a user's connected account at an OAuth provider",
    tags: ["Connected accounts"],
    access: ["client", "server", "admin"],
    params: z.strictObject({ user_id: userIdOrMeSchema, provider_id: z.string() }),
    body: connectedAccountAccessTokenBody,
    status: 201,
    response: connectedAccountAccessTokenJson,
    errors: ACCESS_TOKEN_ERRORS,
  }),
};
