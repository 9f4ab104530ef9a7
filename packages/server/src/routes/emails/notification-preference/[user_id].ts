import { emailsEndpoints, listOf } from "@latchkey/shared";
import { requireUser } from "../../../domain/contact-channels/channels.ts";
import { listPreferences } from "../../../domain/emails/notifications/preferences.ts";
import { defineRoute } from "../../../http/route.ts";
import { resolveUserId } from "../../../http/user-target.ts";
import { tenancyOf } from "../../../http/auth.ts";

export default [
  defineRoute(emailsEndpoints.listNotificationPreferences, async ({ auth, params, services }) => {
    const userId = resolveUserId(auth, params.user_id);
    const tenancy = tenancyOf(auth);
    await requireUser(services.db, tenancy, userId);
    return { body: listOf(await listPreferences(services.db, tenancy, userId)) };
  }),
];
