/**
 * Handing a signed-in session to the project's app on another domain: the
 * app that has the session asks for a one-time authorization code bound to
 * the other app's redirect_uri and PKCE challenge; the other app redeems it
 * at the token endpoint (authorization-code.ts) for this same session, not a
 * new one. The session is proved by its refresh token as well as the access
 * token, so a leaked access token alone cannot hand a session over. The code
 * is stored hashed; the refresh token it hands back is sealed with the
 * server secret, since it must be read again.
 */
import { KnownErrors, StatusError } from "@latchkey/shared";
import type { Services } from "../../../services.ts";
import { encryptWithSecret } from "../../../lib/secrets.ts";
import { isTrustedUrl } from "../../projects/trusted-urls.ts";
import type { ProjectRow } from "../../projects/project-row.ts";
import { findSessionByRefreshToken } from "../../sessions/sessions.ts";
import type { UserRecord } from "../../users/record.ts";
import { HANDOFF_REFRESH_TOKEN_PURPOSE, issueAuthorizationCode, withoutFragment } from "./authorization-code.ts";

export interface CrossDomainRequest {
  project: ProjectRow;
  branchId: string;
  user: UserRecord | null;
  sessionId: string | null;
  /** The x-stack-refresh-token header. */
  refreshToken: string | null;
  redirectUri: string;
  state: string;
  codeChallenge: string;
  afterCallbackRedirectUrl: string | undefined;
}

/** Where the browser goes: the other app's redirect_uri with the code and its state. */
export async function authorizeCrossDomain(
  services: Pick<Services, "db" | "clock" | "config">,
  input: CrossDomainRequest,
): Promise<string> {
  const { project, branchId, user } = input;
  if (!user) throw new KnownErrors.UserAuthenticationRequired();
  for (const url of [input.redirectUri, input.afterCallbackRedirectUrl]) {
    if (url !== undefined && !isTrustedUrl(project.config, url)) throw new KnownErrors.RedirectUrlNotWhitelisted();
  }
  if (!input.refreshToken) throw new StatusError(400, "Cross-domain auth handoff requires passing the current refresh token.");
  const now = services.clock.date();
  const session = await findSessionByRefreshToken(services.db, project.id, branchId, input.refreshToken, now);
  if (!session || session.id !== input.sessionId) {
    throw new StatusError(401, "Cross-domain auth handoff refresh token does not match the authenticated session.");
  }
  const code = await issueAuthorizationCode(
    services.db,
    project.id,
    branchId,
    {
      user_id: user.id,
      is_new_user: false,
      redirect_uri: withoutFragment(input.redirectUri),
      code_challenge: input.codeChallenge,
      after_callback_redirect_url: input.afterCallbackRedirectUrl ?? null,
      handoff_refresh_token_sealed: encryptWithSecret(services.config.serverSecret, HANDOFF_REFRESH_TOKEN_PURPOSE, input.refreshToken),
    },
    now,
  );
  const location = new URL(input.redirectUri);
  location.searchParams.set("code", code);
  location.searchParams.set("state", input.state);
  return location.toString();
}
