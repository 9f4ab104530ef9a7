import { StatusError, authEndpoints } from "@latchkey/shared";
import { signInWithCode } from "../../../domain/auth/otp/otp-sign-in.ts";
import { defineRoute } from "../../../http/route.ts";
import { OTP_DISABLED_MESSAGE } from "./send-sign-in-code.ts";

export default [
  defineRoute(authEndpoints.otpSignIn, async ({ auth, body, services, ip, country }) => {
    const { config } = auth.project;
    if (!config.magic_link_enabled) throw new StatusError(403, OTP_DISABLED_MESSAGE);
    const result = await services.metrics.signIn(
      "otp",
      signInWithCode(services, auth.project, auth.branchId, body.code, {
        signUpAllowed: config.sign_up_enabled || auth.type !== "client",
        anonymousUser: auth.user?.isAnonymous ? auth.user : null,
        countryCode: country,
        ip,
      }),
    );
    return {
      body: {
        access_token: result.accessToken,
        refresh_token: result.refreshToken,
        is_new_user: result.isNewUser,
        user_id: result.userId,
      },
    };
  }),
];
