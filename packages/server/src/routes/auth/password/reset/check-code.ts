import { KnownErrors, authEndpoints } from "@latchkey/shared";
import { checkResetCode } from "../../../../domain/auth/password/password-reset.ts";
import { defineRoute } from "../../../../http/route.ts";

export default [
  defineRoute(authEndpoints.passwordResetCheckCode, async ({ auth, body, services }) => {
    if (!auth.project.config.credential_enabled) throw new KnownErrors.PasswordAuthenticationNotEnabled();
    await checkResetCode(services, auth.project, auth.branchId, body.code);
    return { body: { is_code_valid: true as const } };
  }),
];
