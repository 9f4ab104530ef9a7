import { KnownErrors, SUCCESS, authEndpoints } from "@latchkey/shared";
import { changePassword } from "../../../domain/auth/password/change-password.ts";
import { defineRoute } from "../../../http/route.ts";

export default [
  defineRoute(authEndpoints.passwordUpdate, async ({ auth, body, services }) => {
    if (!auth.project.config.credential_enabled) throw new KnownErrors.PasswordAuthenticationNotEnabled();
    await changePassword(services, auth.project, auth.branchId, auth.user!, auth.sessionId, body);
    return { body: SUCCESS };
  }),
];
