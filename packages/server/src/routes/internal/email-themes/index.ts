import { internalEmailsEndpoints } from "@latchkey/shared";
import { createTheme, ensureDefaults, listThemes } from "../../../domain/emails/templates/store.ts";
import { themeListItemView } from "../../../domain/emails/templates/views.ts";
import { defineRoute } from "../../../http/route.ts";

export default [
  defineRoute(internalEmailsEndpoints.listEmailThemes, async ({ auth, services }) => {
    await ensureDefaults(services.db, auth.project.id);
    const rows = await listThemes(services.db, auth.project.id);
    return { body: { themes: rows.map(themeListItemView) } };
  }),
  defineRoute(internalEmailsEndpoints.createEmailTheme, async ({ auth, body, services }) => {
    const id = await createTheme(services.db, auth.project.id, body.display_name);
    return { body: { id } };
  }),
];
