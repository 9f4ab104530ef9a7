import { z } from "zod";
import { displayNameField } from "../../../domain/emails/templates/schemas.ts";
import { createTheme, ensureDefaults, listThemes } from "../../../domain/emails/templates/store.ts";
import { themeListItemView } from "../../../domain/emails/templates/views.ts";
import { defineRoute } from "../../../http/route.ts";

export default [
  defineRoute({
    method: "GET",
    path: "/internal/email-themes",
    summary: "List the project's e-mail themes (the two built-in ones included)",
    tags: ["Emails"],
    access: ["admin"],
    handler: async ({ auth, services }) => {
      await ensureDefaults(services.db, auth.project.id);
      const rows = await listThemes(services.db, auth.project.id);
      return { body: { themes: rows.map(themeListItemView) } };
    },
  }),
  defineRoute({
    method: "POST",
    path: "/internal/email-themes",
    summary: "Add an e-mail theme; it starts as a copy of the light default",
    tags: ["Emails"],
    access: ["admin"],
    body: z.object({ display_name: displayNameField }).strict(),
    handler: async ({ auth, body, services }) => {
      const id = await createTheme(services.db, auth.project.id, body.display_name);
      return { body: { id } };
    },
  }),
];
