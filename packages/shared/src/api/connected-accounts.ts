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

export const connectedAccountAccessTokenBody = z.strictObject({
  /** Scopes the token must carry, space-separated. */
  scope: z.string().optional(),
});
export type ConnectedAccountAccessTokenBody = z.input<typeof connectedAccountAccessTokenBody>;

export const connectedAccountAccessTokenJson = z.strictObject({ access_token: z.string() });
export type ConnectedAccountAccessTokenJson = z.infer<typeof connectedAccountAccessTokenJson>;

export const connectedAccountsEndpoints = {
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
    errors: [
      KnownErrors.CannotGetOwnUserWithoutUser,
      KnownErrors.OAuthProviderNotFoundOrNotEnabled,
      KnownErrors.OAuthAccessTokenNotAvailableWithSharedOAuthKeys,
      KnownErrors.OAuthConnectionNotConnectedToUser,
      KnownErrors.OAuthConnectionDoesNotHaveRequiredScope,
      KnownErrors.ProviderRejected,
    ],
  }),
};
