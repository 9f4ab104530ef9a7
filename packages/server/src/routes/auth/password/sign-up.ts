import { KnownErrors, authEndpoints } from "@latchkey/shared";
import { botChallengeInput } from "../../../domain/bot-challenge/request-fields.ts";
import { signUpWithPassword } from "../../../domain/auth/password/sign-up.ts";
import { defineRoute } from "../../../http/route.ts";

export default [
  defineRoute(authEndpoints.passwordSignUp, async ({ auth, body, services, ip, country }) => {
    const { config } = auth.project;
    if (!config.credential_enabled) throw new KnownErrors.PasswordAuthenticationNotEnabled();
    const result = await signUpWithPassword(services, auth.project, auth.branchId, {
      signUpAllowed: config.sign_up_enabled || auth.type !== "client",
      email: body.email,
      password: body.password,
      callbackUrl: body.verification_callback_url,
      botChallenge: botChallengeInput(body),
      remoteIp: ip,
      countryCode: country,
      // Signed in anonymously? Then this sign-up upgrades that user in place.
      anonymousUser: auth.user?.isAnonymous ? auth.user : null,
    });
    return {
      body: { access_token: result.accessToken, refresh_token: result.refreshToken, user_id: result.userId },
    };
  }),
];
