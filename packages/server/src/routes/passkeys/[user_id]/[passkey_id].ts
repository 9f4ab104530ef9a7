import { SUCCESS, passkeysEndpoints } from "@latchkey/shared";
import { deletePasskey, passkeyView, renamePasskey } from "../../../domain/auth/passkey/passkeys.ts";
import { tenancyOf } from "../../../http/auth.ts";
import { defineRoute } from "../../../http/route.ts";
import { resolveUserId } from "../../../http/user-target.ts";

export default [
  defineRoute(passkeysEndpoints.updatePasskey, async ({ auth, params, body, services }) => {
    const userId = resolveUserId(auth, params.user_id);
    const row = await renamePasskey(services.db, tenancyOf(auth), userId, params.passkey_id, body.display_name);
    return { body: passkeyView(row) };
  }),
  defineRoute(passkeysEndpoints.deletePasskey, async ({ auth, params, services }) => {
    const userId = resolveUserId(auth, params.user_id);
    await deletePasskey(services.db, services.events, tenancyOf(auth), userId, params.passkey_id);
    return { body: SUCCESS };
  }),
];
