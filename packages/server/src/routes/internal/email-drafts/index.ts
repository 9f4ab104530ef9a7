import { z } from "zod";
import { requireThemeChoice } from "../../../domain/emails/templates/lookup.ts";
import { displayNameField, themeIdSchema, tsxSourceField } from "../../../domain/emails/templates/schemas.ts";
import { createDraft, listDrafts } from "../../../domain/emails/templates/store.ts";
import { themeChoiceFromJson } from "../../../domain/emails/templates/theme-choice.ts";
import { draftView } from "../../../domain/emails/templates/views.ts";
import { defineRoute } from "../../../http/route.ts";

export default [
  defineRoute({
    method: "GET",
    path: "/internal/email-drafts",
    summary: "List the project's e-mail drafts, oldest first",
    tags: ["Emails"],
    access: ["admin"],
    handler: async ({ auth, services }) => {
      const rows = await listDrafts(services.db, auth.project.id);
      return { body: { drafts: rows.map(draftView) } };
    },
  }),
  defineRoute({
    method: "POST",
    path: "/internal/email-drafts",
    summary: "Start an e-mail draft (a one-off message sent with POST /emails/send-email)",
    tags: ["Emails"],
    access: ["admin"],
    body: z
      .object({ display_name: displayNameField, tsx_source: tsxSourceField.optional(), theme_id: themeIdSchema.optional() })
      .strict(),
    handler: async ({ auth, body, services }) => {
      const theme = body.theme_id !== undefined ? themeChoiceFromJson(body.theme_id) : undefined;
      if (theme) await requireThemeChoice(services.db, auth.project.id, theme);
      const id = await createDraft(services.db, auth.project.id, {
        displayName: body.display_name,
        ...(body.tsx_source !== undefined ? { tsxSource: body.tsx_source } : {}),
        ...(theme ? { theme } : {}),
      });
      return { body: { id } };
    },
  }),
];
