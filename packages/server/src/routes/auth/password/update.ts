import { KnownErrors, SUCCESS, authEndpoints } from "@latchkey/shared";
import { checkPasswordRules, hashPassword, verifyPassword } from "../../../domain/auth/password/passwords.ts";
import { saveUserPatch } from "../../../domain/users/update.ts";
import { defineRoute } from "../../../http/route.ts";

export default [
  defineRoute(authEndpoints.passwordUpdate, async ({ auth, body, services }) => {
    const user = auth.user!;
    if (!auth.project.config.credential_enabled) throw new KnownErrors.PasswordAuthenticationNotEnabled();
    if (user.passwordHash === null) throw new KnownErrors.UserDoesNotHavePassword();
    if (!(await verifyPassword(user.passwordHash, body.old_password))) throw new KnownErrors.PasswordConfirmationMismatch();
    checkPasswordRules(body.new_password);
    const passwordHash = await hashPassword(body.new_password);
    await saveUserPatch(services, auth.project, auth.branchId, user, { passwordHash });
    return { body: SUCCESS };
  }),
];
