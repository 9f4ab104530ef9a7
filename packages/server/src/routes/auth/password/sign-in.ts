import { KnownErrors, authEndpoints } from "@latchkey/shared";
import { completeSignIn, signedInOrMfaRequired } from "../../../domain/auth/complete-sign-in.ts";
import { verifyPassword } from "../../../domain/auth/password/passwords.ts";
import { findUser, findUserIdByAuthEmail } from "../../../domain/users/record.ts";
import { defineRoute } from "../../../http/route.ts";

export default [
  defineRoute(authEndpoints.passwordSignIn, async ({ auth, body, services, ip }) => {
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
    const result = signedInOrMfaRequired(await completeSignIn(services, services.db, auth.project, user, { isNewUser: false }));
    return {
      body: { access_token: result.accessToken, refresh_token: result.refreshToken, user_id: user.id },
    };
  }),
];
