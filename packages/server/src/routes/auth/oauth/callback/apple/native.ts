import { oauthEndpoints } from "@latchkey/shared";
import { signInWithAppleIdToken } from "../../../../../domain/auth/oauth/apple-native.ts";
import { defineRoute } from "../../../../../http/route.ts";

export default [
  defineRoute(oauthEndpoints.appleNativeSignIn, ({ auth, body, services, ip, country }) =>
    services.metrics.signIn(
      "oauth",
      signInWithAppleIdToken(services, {
        project: auth.project,
        branchId: auth.branchId,
        idToken: body.id_token,
        signUpAllowed: auth.project.config.sign_up_enabled || auth.type !== "client",
        ip,
        countryCode: country,
      }).then((signedIn) => ({
        body: {
          access_token: signedIn.accessToken,
          refresh_token: signedIn.refreshToken,
          user_id: signedIn.userId,
          is_new_user: signedIn.isNewUser,
        },
      })),
    ),
  ),
];
