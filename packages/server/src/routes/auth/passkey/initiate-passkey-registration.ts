import { passkeysEndpoints } from "@latchkey/shared";
import { requirePasskeysEnabled } from "../../../domain/auth/passkey/relying-party.ts";
import { initiatePasskeyRegistration } from "../../../domain/auth/passkey/registration.ts";
import { defineRoute } from "../../../http/route.ts";

export default [
  defineRoute(passkeysEndpoints.initiatePasskeyRegistration, async ({ auth, services }) => {
    requirePasskeysEnabled(auth.project.config);
    return { body: await initiatePasskeyRegistration(services, auth.project, auth.branchId, auth.user!) };
  }),
];
