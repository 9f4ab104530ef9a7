import { KnownErrors, internalEmailsEndpoints } from "@latchkey/shared";
import { createTemplate, ensureDefaults, listTemplates } from "../../../domain/emails/templates/store.ts";
import { templateView } from "../../../domain/emails/templates/views.ts";
import { defineRoute } from "../../../http/route.ts";

export default [
  defineRoute(internalEmailsEndpoints.listEmailTemplates, async ({ auth, services }) => {
    await ensureDefaults(services.db, auth.project.id);
    const rows = await listTemplates(services.db, auth.project.id);
    return { body: { templates: rows.map(templateView) } };
  }),
  defineRoute(internalEmailsEndpoints.createEmailTemplate, async ({ auth, body, services }) => {
    // Custom mail goes out in the project's name: not through the shared server.
    if (auth.project.config.email_config.type === "shared") throw new KnownErrors.RequiresCustomEmailServer();
    const id = await createTemplate(services.db, auth.project.id, body.display_name);
    return { body: { id } };
  }),
];
