import { listOf, passkeysEndpoints } from "@latchkey/shared";
import { listUserPasskeys, passkeyView } from "../../domain/auth/passkey/passkeys.ts";
import { tenancyOf } from "../../http/auth.ts";
import { defineRoute } from "../../http/route.ts";
import { resolveUserId } from "../../http/user-target.ts";

export default [
  defineRoute(passkeysEndpoints.listPasskeys, async ({ auth, query, services }) => {
    const userId = resolveUserId(auth, query.user_id);
    const rows = await listUserPasskeys(services.db, tenancyOf(auth), userId);
    return { body: listOf(rows.map(passkeyView)) };
  }),
];
