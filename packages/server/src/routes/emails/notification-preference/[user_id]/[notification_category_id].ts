import { emailsEndpoints } from "@latchkey/shared";
import { requireCategory, setPreference } from "../../../../domain/emails/notifications/preferences.ts";
import { defineRoute } from "../../../../http/route.ts";
import { resolveUserId } from "../../../../http/user-target.ts";
import { tenancyOf } from "../../../../http/auth.ts";

export default [
  defineRoute(emailsEndpoints.updateNotificationPreference, async ({ auth, params, body, services }) => {
    const userId = resolveUserId(auth, params.user_id);
    const category = requireCategory(params.notification_category_id);
    const tenancy = tenancyOf(auth);
    const item = await setPreference(services.db, tenancy, userId, category, body.enabled);
    return { body: item };
  }),
];
