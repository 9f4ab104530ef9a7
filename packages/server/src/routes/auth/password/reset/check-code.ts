import { KnownErrors, verificationCodeSchema } from "@latchkey/shared";
import { z } from "zod";
import { checkResetCode } from "../../../../domain/users/password-reset.ts";
import { defineRoute } from "../../../../http/route.ts";

export default [
  defineRoute({
    method: "POST",
    path: "/auth/password/reset/check-code",
    summary: "Check a password-reset code without using it",
    tags: ["Password"],
    access: ["client", "server", "admin"],
    body: z.object({ code: verificationCodeSchema }).strict(),
    handler: async ({ auth, body, services }) => {
      if (!auth.project.config.credential_enabled) throw new KnownErrors.PasswordAuthenticationNotEnabled();
      await checkResetCode(services, auth.project, auth.branchId, body.code);
      return { body: { is_code_valid: true } };
    },
  }),
];
