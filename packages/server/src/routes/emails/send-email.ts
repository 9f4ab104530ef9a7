import { KnownErrors, StatusError, emailsEndpoints } from "@latchkey/shared";
import { findCategoryByName } from "../../domain/emails/notifications/preferences.ts";
import { composeBulkMessage } from "../../domain/emails/notifications/compose.ts";
import { sendToUsers } from "../../domain/emails/notifications/send.ts";
import { defineRoute } from "../../http/route.ts";
import { tenancyOf } from "../../http/auth.ts";

export default [
  defineRoute(emailsEndpoints.sendEmail, async ({ auth, body, services }) => {
    // Bulk mail never goes through the platform's shared server.
    if (auth.project.config.email_config.type === "shared") throw new KnownErrors.RequiresCustomEmailServer();
    const category = findCategoryByName(body.notification_category_name ?? "Transactional");
    if (!category) throw new StatusError(400, "Notification category not found with given name");
    const message = await composeBulkMessage(services.db, auth.project, body);
    const results = await sendToUsers(services, {
      tenancy: tenancyOf(auth),
      category,
      audience: body.user_ids !== undefined ? { userIds: body.user_ids } : { allUsers: true },
      ...message,
    });
    return { body: { results } };
  }),
];
