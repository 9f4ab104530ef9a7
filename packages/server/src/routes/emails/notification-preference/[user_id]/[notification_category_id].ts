import { userIdOrMeSchema } from "@latchkey/shared";
import { z } from "zod";
import { requireUser } from "../../../../domain/contact-channels/channels.ts";
import { requireCategory, setPreference } from "../../../../domain/emails/notifications/preferences.ts";
import { defineRoute } from "../../../../http/route.ts";
import { resolveUserId } from "../../../../http/user-target.ts";
import { tenancyOf } from "../../../../http/auth.ts";

export default [
  defineRoute({
    method: "PATCH",
    path: "/emails/notification-preference/:user_id/:notification_category_id",
    summary: "Turn a notification category on or off for a user (transactional mail cannot be turned off)",
    tags: ["Emails"],
    access: ["client", "server", "admin"],
    params: z.object({ user_id: userIdOrMeSchema, notification_category_id: z.string() }),
    body: z.object({ enabled: z.boolean() }).strict(),
    handler: async ({ auth, params, body, services }) => {
      const userId = resolveUserId(auth, params.user_id);
      const category = requireCategory(params.notification_category_id);
      const tenancy = tenancyOf(auth);
      const item = await services.db.transaction(async (tx) => {
        // The user's row lock: a user deleted meanwhile is reported, not a foreign-key failure.
        await requireUser(tx, tenancy, userId, true);
        return setPreference(tx, tenancy, userId, category, body.enabled);
      });
      return { body: item };
    },
  }),
];
