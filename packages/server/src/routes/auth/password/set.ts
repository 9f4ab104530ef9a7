import { KnownErrors } from "@latchkey/shared";
import { z } from "zod";
import { checkPasswordRules, hashPassword } from "../../../domain/users/passwords.ts";
import { updateUser } from "../../../domain/users/update.ts";
import { StatusError } from "../../../http/errors.ts";
import { defineRoute } from "../../../http/route.ts";

/** For users who have no password yet (e.g. signed up with a one-time code). */
export default [
  defineRoute({
    method: "POST",
    path: "/auth/password/set",
    summary: "Set a password for a user who has none",
    tags: ["Password"],
    access: ["client", "server", "admin"],
    user: "required",
    body: z.object({ password: z.string() }).strict(),
    handler: async ({ auth, body, services }) => {
      const user = auth.user!;
      if (!auth.project.config.credential_enabled) throw new KnownErrors.PasswordAuthenticationNotEnabled();
      if (user.passwordHash !== null) {
        throw new StatusError(400, "This user already has a password. Change it with /auth/password/update.");
      }
      checkPasswordRules(body.password);
      const passwordHash = await hashPassword(body.password);
      // A password signs in with the primary e-mail, so that e-mail must be enabled for sign-in.
      await services.db.transaction((tx) =>
        updateUser(tx, services.bus, auth.project, auth.branchId, user, {
          passwordHash,
          ...(user.primaryEmail && !user.primaryEmailAuthEnabled ? { primaryEmailAuthEnabled: true } : {}),
        }),
      );
      return { body: { success: true } };
    },
  }),
];
