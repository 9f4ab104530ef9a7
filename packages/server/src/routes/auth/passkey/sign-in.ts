import { passkeysEndpoints } from "@latchkey/shared";
import type { AuthenticationResponseJSON } from "@simplewebauthn/server";
import { signInWithPasskey } from "../../../domain/auth/passkey/authentication.ts";
import { requirePasskeysEnabled } from "../../../domain/auth/passkey/relying-party.ts";
import { defineRoute } from "../../../http/route.ts";

export default [
  defineRoute(passkeysEndpoints.passkeySignIn, async ({ auth, body, services, ip }) => {
    requirePasskeysEnabled(auth.project.config);
    // The schema checked the fields the server reads; the library checks the rest of the answer.
    const answer = body.authentication_response as unknown as AuthenticationResponseJSON;
    const result = await services.metrics.signIn(
      "passkey",
      signInWithPasskey(services, auth.project, auth.branchId, answer, body.code, ip),
    );
    return {
      body: { access_token: result.accessToken, refresh_token: result.refreshToken, is_new_user: false, user_id: result.userId },
    };
  }),
];
