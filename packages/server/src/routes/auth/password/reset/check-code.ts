import { KnownErrors } from "@latchkey/shared";
import { codeBody } from "../../../../domain/codes/request-bodies.ts";
import { checkResetCode } from "../../../../domain/users/password-reset.ts";
import { defineRoute } from "../../../../http/route.ts";

export default [
  defineRoute({
    method: "POST",
    path: "/auth/password/reset/check-code",
    summary: "Check a password-reset code without using it",
    tags: ["Password"],
    access: ["client", "server", "admin"],
    body: codeBody,
    handler: async ({ auth, body, services }) => {
      if (!auth.project.config.credential_enabled) throw new KnownErrors.PasswordAuthenticationNotEnabled();
      await checkResetCode(services, auth.project, auth.branchId, body.code);
      return { body: { is_code_valid: true } };
    },
  }),
];
