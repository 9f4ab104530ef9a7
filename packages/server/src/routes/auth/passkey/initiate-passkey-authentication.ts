import { passkeysEndpoints } from "@latchkey/shared";
import { initiatePasskeyAuthentication } from "../../../domain/auth/passkey/authentication.ts";
import { requirePasskeysEnabled } from "../../../domain/auth/passkey/relying-party.ts";
import { defineRoute } from "../../../http/route.ts";

export default [
  defineRoute(passkeysEndpoints.initiatePasskeyAuthentication, async ({ auth, services }) => {
    requirePasskeysEnabled(auth.project.config);
    return { body: await initiatePasskeyAuthentication(services, auth.project, auth.branchId) };
  }),
];
