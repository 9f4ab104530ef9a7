import { connectedAccountsEndpoints, listOf } from "@latchkey/shared";
import { listConnectedAccounts } from "../../domain/auth/oauth/connected-accounts.ts";
import { tenancyOf } from "../../http/auth.ts";
import { defineRoute } from "../../http/route.ts";
import { resolveUserId } from "../../http/user-target.ts";

export default [
  defineRoute(connectedAccountsEndpoints.listConnectedAccounts, async ({ auth, params, services }) => {
    const userId = resolveUserId(auth, params.user_id);
    return { body: listOf(await listConnectedAccounts(services.db, tenancyOf(auth), userId)) };
  }),
];
