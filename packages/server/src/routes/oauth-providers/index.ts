import { listOf, oauthProvidersEndpoints } from "@latchkey/shared";
import {
  clientProviderAccountView,
  createProviderAccount,
  listProviderAccounts,
  serverProviderAccountView,
} from "../../domain/auth/oauth/provider-accounts.ts";
import { tenancyOf } from "../../http/auth.ts";
import { defineRoute } from "../../http/route.ts";
import { resolveUserId } from "../../http/user-target.ts";

export default [
  defineRoute(oauthProvidersEndpoints.listOAuthProviders, async ({ auth, query, services }) => {
    // Without a user id the server lists every user's accounts; a client always names its own user.
    const userId = query.user_id === undefined && auth.type !== "client" ? null : resolveUserId(auth, query.user_id ?? "");
    const rows = await listProviderAccounts(services.db, tenancyOf(auth), userId);
    const view = auth.type === "client" ? clientProviderAccountView : serverProviderAccountView;
    return { body: listOf(rows.map(view)) };
  }),
  defineRoute(oauthProvidersEndpoints.createOAuthProvider, async ({ auth, body, services }) => {
    const userId = resolveUserId(auth, body.user_id);
    const row = await createProviderAccount(services.db, services.events, auth.project.config, tenancyOf(auth), {
      ...body,
      user_id: userId,
    });
    return { body: serverProviderAccountView(row) };
  }),
];
