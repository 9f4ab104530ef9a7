import { KnownErrors, SUCCESS, authEndpoints } from "@latchkey/shared";
import { setFirstPassword } from "../../../domain/auth/password/set-password.ts";
import { defineRoute } from "../../../http/route.ts";

/** For users who have no password yet (e.g. signed up with a one-time code). */
export default [
  defineRoute(authEndpoints.passwordSet, async ({ auth, body, services }) => {
    if (!auth.project.config.credential_enabled) throw new KnownErrors.PasswordAuthenticationNotEnabled();
    await setFirstPassword(services, auth.project, auth.branchId, auth.user!, body.password);
    return { body: SUCCESS };
  }),
];
