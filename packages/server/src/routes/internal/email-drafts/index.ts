import { internalEmailsEndpoints } from "@latchkey/shared";
import { requireThemeChoice } from "../../../domain/emails/templates/lookup.ts";
import { createDraft, listDrafts } from "../../../domain/emails/templates/store.ts";
import { themeChoiceFromJson } from "../../../domain/emails/templates/theme-choice.ts";
import { draftView } from "../../../domain/emails/templates/views.ts";
import { defineRoute } from "../../../http/route.ts";

export default [
  defineRoute(internalEmailsEndpoints.listEmailDrafts, async ({ auth, services }) => {
    const rows = await listDrafts(services.db, auth.project.id);
    return { body: { drafts: rows.map(draftView) } };
  }),
  defineRoute(internalEmailsEndpoints.createEmailDraft, async ({ auth, body, services }) => {
    const theme = body.theme_id !== undefined ? themeChoiceFromJson(body.theme_id) : undefined;
    if (theme) await requireThemeChoice(services.db, auth.project.id, theme);
    const id = await createDraft(services.db, auth.project.id, {
      displayName: body.display_name,
      ...(body.tsx_source !== undefined ? { tsxSource: body.tsx_source } : {}),
      ...(theme ? { theme } : {}),
    });
    return { body: { id } };
  }),
];
