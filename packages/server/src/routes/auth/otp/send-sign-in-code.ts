import { StatusError, authEndpoints } from "@latchkey/shared";
import { botChallengeInput } from "../../../domain/bot-challenge/request-fields.ts";
import { assertTrustedUrl } from "../../../domain/projects/trusted-urls.ts";
import { mailSignInCode } from "../../../domain/auth/otp/otp-sign-in.ts";
import { defineRoute } from "../../../http/route.ts";

/** With magic links off, both one-time-code endpoints answer 403 in plain text. */
export const OTP_DISABLED_MESSAGE =
  "Sign-in with a one-time code (magic link) is not enabled for this project. Enable it in the project's settings.";

export default [
  defineRoute(authEndpoints.otpSendSignInCode, async ({ auth, body, services, ip }) => {
    const { config } = auth.project;
    if (!config.magic_link_enabled) throw new StatusError(403, OTP_DISABLED_MESSAGE);
    assertTrustedUrl(config, body.callback_url);
    services.emailRateLimit.takeCodeEmail(auth.project.id, body.email, ip);
    const nonce = await mailSignInCode(services, auth.project, auth.branchId, {
      email: body.email,
      callbackUrl: body.callback_url,
      signUpAllowed: config.sign_up_enabled || auth.type !== "client",
      botChallenge: botChallengeInput(body),
      remoteIp: ip,
    });
    return { body: { nonce } };
  }),
];
