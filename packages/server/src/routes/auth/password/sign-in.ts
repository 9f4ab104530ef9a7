import { KnownErrors, authEndpoints } from "@latchkey/shared";
import { completeSignIn, signedInOrMfaRequired } from "../../../domain/auth/complete-sign-in.ts";
import { verifyPassword } from "../../../domain/auth/password/passwords.ts";
import { findUser, findUserIdByAuthEmail } from "../../../domain/users/record.ts";
import type { RequestAuth } from "../../../http/auth.ts";
import { defineRoute, type RouteResult } from "../../../http/route.ts";
import type { Services } from "../../../services.ts";

export default [
  defineRoute(authEndpoints.passwordSignIn, ({ auth, body, services, ip }) =>
    services.metrics.signIn("password", signIn(services, auth, body, ip)),
  ),
];

async function signIn(
  services: Services,
  auth: RequestAuth,
  body: { email: string; password: string },
  ip: string | null,
): Promise<RouteResult<{ access_token: string; refresh_token: string; user_id: string }>> {
  if (!auth.project.config.credential_enabled) throw new KnownErrors.PasswordAuthenticationNotEnabled();
  const accountKey = `${auth.project.id}:${body.email.toLowerCase()}`;
  services.signInRateLimit.check(accountKey, ip);
  const found = await findUserIdByAuthEmail(services.db, auth.project.id, auth.branchId, body.email);
  // Unknown e-mail and wrong password take the same path and the same time.
  const ok = await verifyPassword(found?.passwordHash ?? null, body.password);
  if (!found || !ok) {
    services.signInRateLimit.recordFailure(accountKey, ip);
    throw new KnownErrors.EmailPasswordMismatch();
  }
  // Read fresh, not from this replica's cache: whether two-factor is on must not lag behind the database.
  const user = await findUser(services.db, auth.project.id, auth.branchId, found.userId);
  if (!user) throw new KnownErrors.EmailPasswordMismatch();
  const result = signedInOrMfaRequired(await completeSignIn(services, services.db, auth.project, user, { isNewUser: false, ip }));
  return {
    body: { access_token: result.accessToken, refresh_token: result.refreshToken, user_id: user.id },
  };
}
