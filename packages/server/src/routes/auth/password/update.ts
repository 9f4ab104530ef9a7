import { KnownErrors } from "@latchkey/shared";
import { z } from "zod";
import { checkPasswordRules, hashPassword, verifyPassword } from "../../../domain/users/passwords.ts";
import { updateUser } from "../../../domain/users/update.ts";
import { defineRoute } from "../../../http/route.ts";

export default [
  defineRoute({
    method: "POST",
    path: "/auth/password/update",
    summary: "Change the signed-in user's password",
    tags: ["Password"],
    access: ["client", "server", "admin"],
    user: "required",
    body: z.object({ old_password: z.string(), new_password: z.string() }).strict(),
    handler: async ({ auth, body, services }) => {
      const user = auth.user!;
      if (!auth.project.config.credential_enabled) throw new KnownErrors.PasswordAuthenticationNotEnabled();
      if (user.passwordHash === null) throw new KnownErrors.UserDoesNotHavePassword();
      if (!(await verifyPassword(user.passwordHash, body.old_password))) throw new KnownErrors.PasswordConfirmationMismatch();
      checkPasswordRules(body.new_password);
      const passwordHash = await hashPassword(body.new_password);
      await updateUser(services.db, services.bus, auth.project, auth.branchId, user, { passwordHash });
      return { body: { success: true } };
    },
  }),
];
