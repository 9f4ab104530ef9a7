import { KnownErrors } from "@latchkey/shared";
import { mailCodeBody } from "../../../domain/codes/request-bodies.ts";
import { assertTrustedUrl } from "../../../domain/projects/trusted-urls.ts";
import { sendResetCode } from "../../../domain/users/password-reset.ts";
import { defineRoute } from "../../../http/route.ts";

export default [
  defineRoute({
    method: "POST",
    path: "/auth/password/send-reset-code",
    summary: "Mail a password-reset link, if a user signs in with this e-mail",
    tags: ["Password"],
    access: ["client", "server", "admin"],
    body: mailCodeBody,
    handler: async ({ auth, body, services, ip }) => {
      const { config } = auth.project;
      if (!config.credential_enabled) throw new KnownErrors.PasswordAuthenticationNotEnabled();
      assertTrustedUrl(config, body.callback_url);
      // Counted whether or not the address has an account, so the limit does
      // not tell who has one.
      services.emailRateLimit.takeCodeEmail(auth.project.id, body.email, ip);
      await sendResetCode(services, auth.project, auth.branchId, body.email, body.callback_url);
      // The same answer either way (no account enumeration).
      return { body: { success: "maybe, only if user with e-mail exists" } };
    },
  }),
];
