import { passkeysEndpoints } from "@latchkey/shared";
import type { RegistrationResponseJSON } from "@simplewebauthn/server";
import { requirePasskeysEnabled } from "../../../domain/auth/passkey/relying-party.ts";
import { registerPasskey } from "../../../domain/auth/passkey/registration.ts";
import { defineRoute } from "../../../http/route.ts";

export default [
  defineRoute(passkeysEndpoints.registerPasskey, async ({ auth, body, services }) => {
    requirePasskeysEnabled(auth.project.config);
    // The schema checked the fields the server reads; the library checks the rest of the answer.
    const credential = body.credential as unknown as RegistrationResponseJSON;
    const credentialId = await registerPasskey(services, auth.project, auth.branchId, auth.user!, credential, body.code);
    return { body: { user_handle: credentialId } };
  }),
];
