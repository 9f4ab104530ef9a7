import { KnownErrors, SUCCESS, authEndpoints } from "@latchkey/shared";
import { resetPassword } from "../../../domain/auth/password/password-reset.ts";
import { checkPasswordRules, hashPassword } from "../../../domain/auth/password/passwords.ts";
import { defineRoute } from "../../../http/route.ts";

export default [
  defineRoute(authEndpoints.passwordReset, async ({ auth, body, services }) => {
    if (!auth.project.config.credential_enabled) throw new KnownErrors.PasswordAuthenticationNotEnabled();
    // Before the code is touched: a refused password leaves it usable.
    checkPasswordRules(body.password);
    // Hash outside the code's transaction: it is the slow part and needs no lock.
    const passwordHash = await hashPassword(body.password);
    await resetPassword(services, auth.project, auth.branchId, body.code, passwordHash);
    return { body: SUCCESS };
  }),
];
