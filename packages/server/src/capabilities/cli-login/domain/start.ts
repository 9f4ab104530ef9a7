/**
 * A CLI asks to be signed in: two fresh codes, stored as digests. The CLI
 * may bring its anonymous session, which must be a live one of an
 * anonymous user of this project; the browser may later take it over.
 * Starting a login also does the table's housekeeping (see
 * `deleteLongExpired`): the endpoint needs only a publishable key, so the
 * rows it adds are what must not pile up.
 */
import { CLI_AUTH_DEFAULT_EXPIRATION_MILLIS, StatusError, VERIFICATION_CODE_LENGTH } from "@latchkey/shared";
import { tenancyOf, type Tenancy } from "../../../db/tenancy.ts";
import { randomCode } from "../../../lib/secrets.ts";
import type { Services } from "../../../services.ts";
import { cliAuthAttempts } from "../schema.ts";
import { codeDigest, deleteLongExpired, sealToken } from "./attempts.ts";
import { CLI_AUTH_MESSAGES } from "./messages.ts";
import { inspectRefreshToken } from "./refresh-tokens.ts";

export interface StartedCliAuth {
  pollingCode: string;
  loginCode: string;
  expiresAt: Date;
}

export async function startCliAuth(
  services: Services,
  tenancy: Tenancy,
  options: { expiresInMillis?: number | undefined; anonRefreshToken?: string | undefined },
): Promise<StartedCliAuth> {
  const anonRefreshTokenSealed =
    options.anonRefreshToken === undefined
      ? null
      : sealToken(
          services.config.serverSecret,
          "cli-anon-refresh-token",
          await checkedAnonRefreshToken(services, tenancy, options.anonRefreshToken),
        );
  await deleteLongExpired(services.db, services.clock.date());
  const pollingCode = randomCode(VERIFICATION_CODE_LENGTH);
  const loginCode = randomCode(VERIFICATION_CODE_LENGTH);
  const expiresAt = new Date(services.clock.now() + (options.expiresInMillis ?? CLI_AUTH_DEFAULT_EXPIRATION_MILLIS));
  await services.db.insert(cliAuthAttempts).values({
    ...tenancyOf(tenancy),
    pollingCodeHash: codeDigest(pollingCode),
    loginCodeHash: codeDigest(loginCode),
    anonRefreshTokenSealed,
    expiresAt,
  });
  return { pollingCode, loginCode, expiresAt };
}

async function checkedAnonRefreshToken(services: Services, tenancy: Tenancy, token: string): Promise<string> {
  const check = await inspectRefreshToken(services.db, tenancy, token, services.clock.date());
  switch (check.kind) {
    case "unknown":
      throw new StatusError(400, CLI_AUTH_MESSAGES.invalidAnonRefreshToken);
    case "other-project":
      throw new StatusError(400, CLI_AUTH_MESSAGES.anonRefreshTokenOfOtherProject);
    case "expired":
      throw new StatusError(400, CLI_AUTH_MESSAGES.anonRefreshTokenExpired);
    case "no-user":
      throw new StatusError(400, CLI_AUTH_MESSAGES.anonRefreshTokenUserGone);
    case "live":
      if (!check.user.isAnonymous) throw new StatusError(400, CLI_AUTH_MESSAGES.anonRefreshTokenNotAnonymous);
      return token;
  }
}
