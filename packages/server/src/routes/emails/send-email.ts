import { KnownErrors, StatusError, emailsEndpoints } from "@latchkey/shared";
import { findCategoryByName, type NotificationCategory } from "../../domain/emails/notifications/preferences.ts";
import { composeBulkMessage } from "../../domain/emails/notifications/compose.ts";
import { sendToUsers } from "../../domain/emails/notifications/send.ts";
import { defineRoute } from "../../http/route.ts";
import { tenancyOf } from "../../http/auth.ts";

function categoryNamed(name: string): NotificationCategory {
  const category = findCategoryByName(name);
  if (!category) throw new StatusError(400, "Notification category not found with given name");
  return category;
}

export default [
  defineRoute(emailsEndpoints.sendEmail, async ({ auth, body, services }) => {
    // Bulk mail never goes through the platform's shared server.
    if (auth.project.config.email_config.type === "shared") throw new KnownErrors.RequiresCustomEmailServer();
    const named = body.notification_category_name;
    if (named !== undefined) categoryNamed(named);
    const { declaredCategory, ...message } = await composeBulkMessage(services.db, auth.project, body);
    // Without one in the request, a template's own <NotificationCategory> decides (Transactional when it names none).
    const category = categoryNamed(named ?? (await declaredCategory()) ?? "Transactional");
    const results = await sendToUsers(services, {
      tenancy: tenancyOf(auth),
      category,
      audience: body.user_ids !== undefined ? { userIds: body.user_ids } : { allUsers: true },
      ...message,
    });
    return { body: { results } };
  }),
];
