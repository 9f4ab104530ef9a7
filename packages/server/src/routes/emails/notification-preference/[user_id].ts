import { userIdOrMeSchema } from "@latchkey/shared";
import { z } from "zod";
import { requireUser } from "../../../domain/contact-channels/channels.ts";
import { listPreferences } from "../../../domain/emails/notifications/preferences.ts";
import { defineRoute } from "../../../http/route.ts";
import { resolveUserId } from "../../../http/user-target.ts";
import { tenancyOf } from "../../../http/auth.ts";

export default [
  defineRoute({
    method: "GET",
    path: "/emails/notification-preference/:user_id",
    summary: "A user's notification preferences: every category, enabled unless the user turned it off",
    tags: ["Emails"],
    access: ["client", "server", "admin"],
    params: z.object({ user_id: userIdOrMeSchema }),
    handler: async ({ auth, params, services }) => {
      const userId = resolveUserId(auth, params.user_id);
      const tenancy = tenancyOf(auth);
      await requireUser(services.db, tenancy, userId);
      return { body: { items: await listPreferences(services.db, tenancy, userId), is_paginated: false } };
    },
  }),
];
