/**
 * GET /auth/oauth/authorize/<provider>: checks what the app asked for, in
 * the order the official product does (client, provider, link token, bot
 * challenge, the token's project and branch, extra scopes with shared keys),
 * then stores the flow and hands back the provider's authorization URL.
 */
import { KnownErrors, PUBLIC_CLIENT_SECRET_SENTINEL, StatusError, type oauthAuthorizeQuery } from "@latchkey/shared";
import type { z } from "zod";
import { newFlowSecrets } from "../../../integrations/oauth/client.ts";
import type { Services } from "../../../services.ts";
import { botChallengeInput } from "../../bot-challenge/request-fields.ts";
import { checkBotChallenge } from "../../bot-challenge/verify.ts";
import { isSessionLive } from "../../sessions/liveness.ts";
import { isTrustedUrl } from "../../projects/trusted-urls.ts";
import { OAUTH_FLOW_LIFETIME_MILLIS, saveFlow } from "./flows.ts";
import { authenticateOAuthClient } from "./oauth-client.ts";
import { connectProvider, enabledProvider, providerCallbackUrl, providerFailure, requestedScopes } from "./providers.ts";

export type AuthorizeQuery = z.output<typeof oauthAuthorizeQuery>;

/** The only scope apps ask Latchkey for. */
export const LEGACY_SCOPE = "legacy";

export interface AuthorizeResult {
  /** The provider's authorization URL. */
  location: string;
  /** The state given to the provider: the browser gets the cookie of this flow (not in JSON mode). */
  innerState: string;
  responseMode: "redirect" | "json";
}

export async function authorizeWithProvider(
  services: Services,
  providerId: string,
  query: AuthorizeQuery,
  remoteIp: string | null,
): Promise<AuthorizeResult> {
  const { project, branchId } = await authenticateOAuthClient(services, query.client_id, query.client_secret, "publishable_key");
  const provider = enabledProvider(services.config, project.config, providerId);
  if (query.type === "link" && !query.token) throw new StatusError(400, "?token= query parameter is required for link type");
  const botChallenge = await checkBotChallenge(
    { siteverify: services.siteverify, config: project.config, action: "oauth_authenticate", remoteIp },
    botChallengeInput(query),
  );
  let userId: string | null = null;
  if (query.token) {
    // Anonymous and restricted users' tokens are welcome: an anonymous user signs up by upgrading.
    const claims = services.tokens.verify(query.token);
    if (claims.project_id !== project.id) throw new StatusError(403, "The access token is not valid for this project");
    if (claims.branch_id !== branchId) throw new StatusError(403, "The access token is not valid for this branch");
    // A token outliving its signed-out session links nothing, as an expired one would not.
    if (!(await isSessionLive(services, claims))) {
      throw new KnownErrors.AccessTokenExpired(null, claims.project_id, claims.sub, claims.refresh_token_id);
    }
    userId = claims.sub;
  }
  const providerScope = query.provider_scope?.trim() || null;
  if (provider.shared && providerScope) throw new KnownErrors.OAuthExtraScopeNotAvailableWithSharedOAuthKeys();
  // Checked here, before the user meets the provider, where the official product finds an untrusted
  // redirect_uri only at the callback: the answer is the same error, without a sign-in for nothing.
  for (const url of [query.redirect_uri, query.after_callback_redirect_url]) {
    if (url !== undefined && !isTrustedUrl(project.config, url)) throw new KnownErrors.RedirectUrlNotWhitelisted();
  }
  // Also checked earlier than the official product, which refuses it at the callback.
  if (query.scope !== LEGACY_SCOPE) throw new KnownErrors.InvalidScope(query.scope);

  const inner = newFlowSecrets();
  let location: URL;
  try {
    // The development provider is found by discovery: this is where it is first asked.
    const client = await connectProvider(provider, services.clock);
    location = await client.authorizationUrl({
      redirectUri: providerCallbackUrl(services.config, provider.id),
      state: inner.state,
      codeVerifier: inner.codeVerifier,
      scopes: requestedScopes(client.baseScopes, providerScope),
    });
  } catch (error) {
    throw providerFailure(error);
  }
  await saveFlow(services.db, services.config.serverSecret, {
    projectId: project.id,
    branchId,
    innerState: inner.state,
    innerCodeVerifier: inner.codeVerifier,
    expiresAt: new Date(services.clock.now() + OAUTH_FLOW_LIFETIME_MILLIS),
    data: {
      provider_id: provider.id,
      publishable_client_key: query.client_secret === PUBLIC_CLIENT_SECRET_SENTINEL ? null : query.client_secret,
      type: query.type,
      user_id: userId,
      redirect_uri: query.redirect_uri.split("#")[0]!,
      state: query.state,
      code_challenge: query.code_challenge,
      provider_scope: providerScope,
      error_redirect_url: query.error_redirect_uri ?? query.error_redirect_url ?? null,
      after_callback_redirect_url: query.after_callback_redirect_url ?? null,
      response_mode: query.stack_response_mode,
      bot_challenge: botChallenge,
    },
  });
  return { location: location.toString(), innerState: inner.state, responseMode: query.stack_response_mode };
}
