import { authEndpoints } from "@latchkey/shared";
import { signUpAnonymously } from "../../../domain/auth/anonymous/anonymous-sign-up.ts";
import { defineRoute } from "../../../http/route.ts";

export default [
  defineRoute(authEndpoints.anonymousSignUp, async ({ auth, services, ip, country }) => {
    const result = await signUpAnonymously(services, auth.project, auth.branchId, { countryCode: country, ip });
    return {
      body: { access_token: result.accessToken, refresh_token: result.refreshToken, user_id: result.userId },
    };
  }),
];
