import { mfaEndpoints } from "@latchkey/shared";
import { signInWithTotp } from "../../../domain/auth/mfa/mfa-sign-in.ts";
import { defineRoute } from "../../../http/route.ts";

export default [
  defineRoute(mfaEndpoints.mfaSignIn, async ({ auth, body, services, ip }) => {
    const result = await services.metrics.signIn("totp", signInWithTotp(services, auth.project, auth.branchId, body.code, body.totp, ip));
    return {
      body: { access_token: result.accessToken, refresh_token: result.refreshToken, is_new_user: result.isNewUser, user_id: result.userId },
    };
  }),
];
