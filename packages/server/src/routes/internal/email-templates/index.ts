import { KnownErrors } from "@latchkey/shared";
import { z } from "zod";
import { displayNameField } from "../../../domain/emails/templates/schemas.ts";
import { createTemplate, ensureDefaults, listTemplates } from "../../../domain/emails/templates/store.ts";
import { templateView } from "../../../domain/emails/templates/views.ts";
import { defineRoute } from "../../../http/route.ts";

export default [
  defineRoute({
    method: "GET",
    path: "/internal/email-templates",
    summary: "List the project's e-mail templates (the built-in ones included) with their TSX",
    tags: ["Emails"],
    access: ["admin"],
    handler: async ({ auth, services }) => {
      await ensureDefaults(services.db, auth.project.id);
      const rows = await listTemplates(services.db, auth.project.id);
      return { body: { templates: rows.map(templateView) } };
    },
  }),
  defineRoute({
    method: "POST",
    path: "/internal/email-templates",
    summary: "Add an e-mail template (needs the project's own e-mail server)",
    tags: ["Emails"],
    access: ["admin"],
    body: z.object({ display_name: displayNameField }).strict(),
    handler: async ({ auth, body, services }) => {
      // Custom mail goes out in the project's name: not through the shared server.
      if (auth.project.config.email_config.type === "shared") throw new KnownErrors.RequiresCustomEmailServer();
      const id = await createTemplate(services.db, auth.project.id, body.display_name);
      return { body: { id } };
    },
  }),
];
