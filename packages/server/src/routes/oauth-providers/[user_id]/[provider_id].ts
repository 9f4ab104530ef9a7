import { SUCCESS, oauthProvidersEndpoints } from "@latchkey/shared";
import {
  clientProviderAccountView,
  deleteProviderAccount,
  requireProviderAccount,
  serverProviderAccountView,
  updateProviderAccount,
} from "../../../domain/auth/oauth/provider-accounts.ts";
import { tenancyOf, type RequestAuth } from "../../../http/auth.ts";
import { defineRoute } from "../../../http/route.ts";
import { resolveUserId } from "../../../http/user-target.ts";

const viewFor = (auth: RequestAuth) => (auth.type === "client" ? clientProviderAccountView : serverProviderAccountView);

export default [
  defineRoute(oauthProvidersEndpoints.getOAuthProvider, async ({ auth, params, services }) => {
    const userId = resolveUserId(auth, params.user_id);
    const row = await requireProviderAccount(services.db, auth.project.config, tenancyOf(auth), userId, params.provider_id);
    return { body: viewFor(auth)(row) };
  }),
  defineRoute(oauthProvidersEndpoints.updateOAuthProvider, async ({ auth, params, body, services }) => {
    const userId = resolveUserId(auth, params.user_id);
    const t = tenancyOf(auth);
    const row = await updateProviderAccount(services.db, services.events, auth.project.config, t, userId, params.provider_id, body);
    return { body: viewFor(auth)(row) };
  }),
  defineRoute(oauthProvidersEndpoints.deleteOAuthProvider, async ({ auth, params, services }) => {
    const userId = resolveUserId(auth, params.user_id);
    await deleteProviderAccount(services.db, services.events, auth.project.config, tenancyOf(auth), userId, params.provider_id);
    return { body: SUCCESS };
  }),
];
