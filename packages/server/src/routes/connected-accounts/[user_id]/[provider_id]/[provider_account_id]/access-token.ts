import { connectedAccountsEndpoints } from "@latchkey/shared";
import { connectedAccountAccessToken } from "../../../../../domain/auth/oauth/connected-accounts.ts";
import { tenancyOf } from "../../../../../http/auth.ts";
import { defineRoute } from "../../../../../http/route.ts";
import { resolveUserId } from "../../../../../http/user-target.ts";

export default [
  defineRoute(connectedAccountsEndpoints.createConnectedAccountAccessTokenByAccount, async ({ auth, params, body, services }) => {
    const userId = resolveUserId(auth, params.user_id);
    const target = { userId, providerId: params.provider_id, providerAccountId: params.provider_account_id };
    const accessToken = await connectedAccountAccessToken(services, auth.project.config, tenancyOf(auth), target, body.scope);
    return { body: { access_token: accessToken }, status: 201 };
  }),
];
