/**
 * The code our callback hands the app (on its redirect_uri) and the app
 * exchanges at POST /auth/oauth/token with its PKCE verifier: a one-time
 * code (domain/codes/verification-codes.ts) bound to the user, the
 * redirect_uri and the app's S256 challenge, valid 5 minutes. The exchange
 * is where the sign-in completes, so a user with two-factor gets
 * MULTI_FACTOR_AUTHENTICATION_REQUIRED there. A cross-domain hand-off code
 * (cross-domain.ts) completes no sign-in: it hands back the session it was
 * issued for.
 */
import { KnownErrors, StatusError } from "@latchkey/shared";
import { createHash } from "node:crypto";
import { decryptWithSecret } from "../../../lib/secrets.ts";
import { refreshAccessToken } from "../../sessions/refresh.ts";
import type { DbOrTx } from "../../../db/connect.ts";
import type { Services } from "../../../services.ts";
import { useCode, type CodeScope } from "../../codes/verification-codes.ts";
import { findUser } from "../../users/record.ts";
import { completeSignIn, signedInOrMfaRequired, type SignInOutcome, type SignedIn } from "../complete-sign-in.ts";
import { createCode } from "../../codes/verification-codes.ts";
import type { ProjectRow } from "../../projects/project-row.ts";

export const AUTHORIZATION_CODE_LIFETIME_MILLIS = 5 * 60 * 1000;
/** What seals a hand-off code's refresh token (lib/secrets.ts). */
export const HANDOFF_REFRESH_TOKEN_PURPOSE = "oauth-cross-domain-refresh-token";

export interface OAuthAuthorizationCodeData {
  user_id: string;
  is_new_user: boolean;
  redirect_uri: string;
  code_challenge: string;
  after_callback_redirect_url: string | null;
  /** Cross-domain hand-off only: the refresh token of the session handed over, sealed. */
  handoff_refresh_token_sealed?: string;
}

type Exchanged = SignInOutcome | { handoff: { refreshToken: string; userId: string } };

function scopeOf(projectId: string, branchId: string): CodeScope {
  return { projectId, branchId, purpose: "oauth_authorization_code" };
}

export async function issueAuthorizationCode(
  db: DbOrTx,
  projectId: string,
  branchId: string,
  data: OAuthAuthorizationCodeData,
  now: Date,
): Promise<string> {
  const expiresAt = new Date(now.getTime() + AUTHORIZATION_CODE_LIFETIME_MILLIS);
  const { code } = await createCode(db, scopeOf(projectId, branchId), { ...data }, expiresAt);
  return code;
}

export interface CodeExchange {
  code: string;
  redirectUri: string | undefined;
  codeVerifier: string | undefined;
  /** The client's address, recorded on the new session. */
  ip?: string | null;
}

export interface CodeExchanged extends SignedIn {
  afterCallbackRedirectUrl: string | null;
}

/**
 * Spends the code and signs its user in, in one transaction; of concurrent
 * exchanges of one code exactly one succeeds. A wrong verifier or
 * redirect_uri leaves the code unspent (and counts an attempt against it).
 */
export async function exchangeAuthorizationCode(
  services: Services,
  project: ProjectRow,
  branchId: string,
  input: CodeExchange,
): Promise<CodeExchanged> {
  let afterCallbackRedirectUrl: string | null = null;
  let outcome: Exchanged;
  try {
    outcome = await useCode<OAuthAuthorizationCodeData, Exchanged>(
      services,
      scopeOf(project.id, branchId),
      input.code,
      async (tx, data) => {
        const user = await findUser(tx, project.id, branchId, data.user_id);
        // The user was deleted since the code was issued: the code leads nowhere.
        if (!user) throw new KnownErrors.InvalidAuthorizationCode();
        afterCallbackRedirectUrl = data.after_callback_redirect_url;
        if (data.handoff_refresh_token_sealed !== undefined) {
          const refreshToken = decryptWithSecret(
            services.config.serverSecret,
            HANDOFF_REFRESH_TOKEN_PURPOSE,
            data.handoff_refresh_token_sealed,
          );
          return { handoff: { refreshToken, userId: user.id } };
        }
        return completeSignIn(services, tx, project, user, { isNewUser: data.is_new_user, ip: input.ip ?? null });
      },
      async (_tx, data) => {
        if (!input.codeVerifier || s256(input.codeVerifier) !== data.code_challenge) return new KnownErrors.InvalidAuthorizationCode();
        if (withoutFragment(input.redirectUri ?? "") !== data.redirect_uri) {
          return new StatusError(
            400,
            "Invalid redirect URI. Your redirect URI must be the same as the one used to get the authorization code.",
          );
        }
        return null;
      },
    );
  } catch (error) {
    // Unknown, expired, spent or too often guessed: to an OAuth client, all the same bad code.
    if (error instanceof KnownErrors.VerificationCodeError) throw new KnownErrors.InvalidAuthorizationCode();
    throw error;
  }
  if ("handoff" in outcome)
    return { ...(await handedOff(services, project, branchId, outcome.handoff, input.ip ?? null)), afterCallbackRedirectUrl };
  return { ...signedInOrMfaRequired(outcome), afterCallbackRedirectUrl };
}

/** The session a hand-off code was issued for, with a fresh access token; gone since (signed out): a bad code. */
async function handedOff(
  services: Services,
  project: ProjectRow,
  branchId: string,
  session: { refreshToken: string; userId: string },
  ip: string | null,
): Promise<SignedIn> {
  let accessToken: string;
  try {
    accessToken = await refreshAccessToken(services, project, branchId, session.refreshToken, ip);
  } catch (error) {
    if (error instanceof KnownErrors.RefreshTokenNotFoundOrExpired) throw new KnownErrors.InvalidAuthorizationCode();
    throw error;
  }
  return { accessToken, refreshToken: session.refreshToken, userId: session.userId, isNewUser: false };
}

function s256(verifier: string): string {
  return createHash("sha256").update(verifier).digest("base64url");
}

export function withoutFragment(url: string): string {
  const hash = url.indexOf("#");
  return hash < 0 ? url : url.slice(0, hash);
}
