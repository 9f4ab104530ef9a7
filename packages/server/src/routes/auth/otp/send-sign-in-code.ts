import { z } from "zod";
import { mailCodeBody } from "../../../domain/codes/request-bodies.ts";
import { assertTrustedUrl } from "../../../domain/projects/trusted-urls.ts";
import { mailSignInCode } from "../../../domain/users/otp-sign-in.ts";
import { StatusError } from "../../../http/errors.ts";
import { defineRoute } from "../../../http/route.ts";

/** WIRE §5: with magic links off, both OTP endpoints answer 403 in plain text. */
export const OTP_DISABLED_MESSAGE =
  "Sign-in with a one-time code (magic link) is not enabled for this project. Enable it in the project's settings.";

export default [
  defineRoute({
    method: "POST",
    path: "/auth/otp/send-sign-in-code",
    summary: "Mail a sign-in code and link",
    tags: ["OTP"],
    access: ["client", "server", "admin"],
    body: mailCodeBody,
    response: z.object({ nonce: z.string() }),
    handler: async ({ auth, body, services, ip }) => {
      const { config } = auth.project;
      if (!config.magic_link_enabled) throw new StatusError(403, OTP_DISABLED_MESSAGE);
      assertTrustedUrl(config, body.callback_url);
      services.emailRateLimit.takeCodeEmail(auth.project.id, body.email, ip);
      const nonce = await mailSignInCode(services, auth.project, auth.branchId, {
        email: body.email,
        callbackUrl: body.callback_url,
        signUpAllowed: config.sign_up_enabled || auth.type !== "client",
      });
      services.emails.kick();
      return { body: { nonce } };
    },
  }),
];
