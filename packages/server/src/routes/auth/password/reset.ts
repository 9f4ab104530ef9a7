import { KnownErrors, verificationCodeSchema } from "@latchkey/shared";
import { z } from "zod";
import { resetPassword } from "../../../domain/users/password-reset.ts";
import { checkPasswordRules, hashPassword } from "../../../domain/users/passwords.ts";
import { defineRoute } from "../../../http/route.ts";

export default [
  defineRoute({
    method: "POST",
    path: "/auth/password/reset",
    summary: "Set a new password with a reset code; ends all the user's sessions",
    tags: ["Password"],
    access: ["client", "server", "admin"],
    body: z.object({ code: verificationCodeSchema, password: z.string() }).strict(),
    handler: async ({ auth, body, services }) => {
      if (!auth.project.config.credential_enabled) throw new KnownErrors.PasswordAuthenticationNotEnabled();
      // Before the code is touched: a refused password leaves it usable.
      checkPasswordRules(body.password);
      // Hash outside the code's transaction: it is the slow part and needs no lock.
      const passwordHash = await hashPassword(body.password);
      await resetPassword(services, auth.project, auth.branchId, body.code, passwordHash);
      return { body: { success: true } };
    },
  }),
];
