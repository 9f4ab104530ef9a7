/**
 * GET (or POST) /auth/oauth/callback/<provider>: the provider sends the
 * browser back here. The flow of the returned state is taken (once), checked
 * against the browser's cookie and its time limit; the provider's code is
 * exchanged and the user read; then, in one transaction, the user is found,
 * created or linked (accounts.ts) and our authorization code issued, and the
 * browser goes on to the app's redirect_uri with it.
 */
import { KnownError, KnownErrors, StatusError } from "@latchkey/shared";
import type { ProviderSignIn } from "../../../integrations/oauth/client.ts";
import type { Services } from "../../../services.ts";
import { isTrustedUrl } from "../../projects/trusted-urls.ts";
import { signInOrLinkWithProvider } from "./accounts.ts";
import { issueAuthorizationCode } from "./authorization-code.ts";
import { errorRedirectLocation } from "./error-redirect.ts";
import { OAUTH_INNER_COOKIE_PREFIX, takeFlow, type OAuthFlow } from "./flows.ts";
import { checkClientKey } from "./oauth-client.ts";
import {
  connectProvider,
  enabledProvider,
  providerCallbackUrl,
  providerFailure,
  requestedScopes,
  type EnabledProvider,
} from "./providers.ts";
import type { ProjectRow } from "../../projects/project-row.ts";

export const INVALID_STATE_MESSAGE = "Invalid OAuth state. Please try signing in again.";
export const MISSING_COOKIE_MESSAGE =
  "Inner OAuth cookie not found. This is likely because you refreshed the page during the OAuth sign in process. Please try signing in again";

export interface CallbackInput {
  providerId: string;
  /** The provider's answer: `code` and `state`, or `error`. */
  query: Record<string, string>;
  cookies: ReadonlyMap<string, string>;
  /** The browser's country when a trusted proxy said (http/client-address.ts), for a user this sign-in creates. */
  countryCode?: string | null;
}

export interface CallbackResult {
  status: 303 | 307;
  location: string;
  /** The flow's cookie, to delete (it is spent whatever happened). */
  spentCookie: string | null;
}

export async function finishOAuthFlow(services: Services, input: CallbackInput): Promise<CallbackResult> {
  const state = input.query.state;
  const flow = state ? await takeFlow(services.db, services.config.serverSecret, state) : null;
  // A flow is only good at the callback of the provider it was started for.
  if (!flow || flow.data.provider_id !== input.providerId) throw new StatusError(400, INVALID_STATE_MESSAGE);
  // In JSON mode the app navigates itself and no cookie was set: its own PKCE verifier keeps the code its own.
  const cookieName = flow.data.response_mode === "json" ? null : OAUTH_INNER_COOKIE_PREFIX + flow.innerState;
  if (cookieName && input.cookies.get(cookieName) !== "true") throw new StatusError(400, MISSING_COOKIE_MESSAGE);
  const project = await services.projects.get(flow.projectId);
  if (!project) throw new StatusError(400, INVALID_STATE_MESSAGE);
  try {
    const location = await signInAndIssueCode(services, project, flow, input.query, input.countryCode ?? null);
    return { status: 303, location, spentCookie: cookieName };
  } catch (error) {
    const location = error instanceof KnownError ? errorRedirectLocation(project.config, flow.data, error) : null;
    if (location === null) throw error;
    return { status: 307, location, spentCookie: cookieName };
  }
}

async function signInAndIssueCode(
  services: Services,
  project: ProjectRow,
  flow: OAuthFlow,
  query: Record<string, string>,
  countryCode: string | null,
): Promise<string> {
  if (flow.expiresAt.getTime() <= services.clock.now()) throw new KnownErrors.OuterOAuthTimeout();
  // The project may have changed since the flow started.
  const provider = enabledProvider(services.config, project.config, flow.data.provider_id);
  await checkClientKey(services, project, flow.data.publishable_client_key, () => new KnownErrors.InvalidPublishableClientKey(project.id));
  if (!isTrustedUrl(project.config, flow.data.redirect_uri)) throw new KnownErrors.RedirectUrlNotWhitelisted();
  const signIn = await providerSignIn(services, provider, flow, query);
  const code = await services.events.transaction(services.db, async (tx) => {
    const { user, isNewUser } = await signInOrLinkWithProvider(services, tx, project, flow.branchId, {
      providerConfigId: provider.entry.id,
      profile: signIn.profile,
      tokens: { ...signIn.tokens, scopes: signIn.scopes },
      type: flow.data.type,
      userId: flow.data.user_id,
      signUpAllowed: project.config.sign_up_enabled,
      botChallenge: flow.data.bot_challenge ?? null,
      countryCode,
    });
    return issueAuthorizationCode(
      tx,
      project.id,
      flow.branchId,
      {
        user_id: user.id,
        is_new_user: isNewUser,
        redirect_uri: flow.data.redirect_uri,
        code_challenge: flow.data.code_challenge,
        after_callback_redirect_url: flow.data.after_callback_redirect_url,
      },
      services.clock.date(),
    );
  });
  const location = new URL(flow.data.redirect_uri);
  location.searchParams.set("code", code);
  location.searchParams.set("state", flow.data.state);
  return location.toString();
}

/** The provider's code exchanged, and the user it names. */
async function providerSignIn(
  services: Services,
  provider: EnabledProvider,
  flow: OAuthFlow,
  query: Record<string, string>,
): Promise<ProviderSignIn & { scopes: string[] }> {
  try {
    const client = await connectProvider(provider, services.clock);
    const callbackUrl = new URL(providerCallbackUrl(services.config, provider.id));
    for (const [key, value] of Object.entries(query)) callbackUrl.searchParams.set(key, value);
    const signIn = await client.signIn(callbackUrl, { state: flow.innerState, codeVerifier: flow.innerCodeVerifier });
    return { ...signIn, scopes: requestedScopes(client.baseScopes, flow.data.provider_scope) };
  } catch (error) {
    throw providerFailure(error);
  }
}
