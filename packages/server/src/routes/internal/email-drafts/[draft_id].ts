import { uuidSchema } from "@latchkey/shared";
import { z } from "zod";
import { requireDraft, requireThemeChoice } from "../../../domain/emails/templates/lookup.ts";
import { displayNameField, themeIdSchema, tsxSourceField } from "../../../domain/emails/templates/schemas.ts";
import { deleteDraft, updateDraft } from "../../../domain/emails/templates/store.ts";
import { themeChoiceFromJson } from "../../../domain/emails/templates/theme-choice.ts";
import { draftView } from "../../../domain/emails/templates/views.ts";
import { StatusError } from "../../../http/errors.ts";
import { defineRoute } from "../../../http/route.ts";

const params = z.object({ draft_id: uuidSchema });

const notFound = (id: string) => new StatusError(404, `This project has no e-mail draft with id ${id}.`);

export default [
  defineRoute({
    method: "GET",
    path: "/internal/email-drafts/:draft_id",
    summary: "Get one e-mail draft",
    tags: ["Emails"],
    access: ["admin"],
    params,
    handler: async ({ auth, params, services }) => ({
      body: draftView(await requireDraft(services.db, auth.project.id, params.draft_id)),
    }),
  }),
  defineRoute({
    method: "PATCH",
    path: "/internal/email-drafts/:draft_id",
    summary: "Change a draft's name, TSX or theme (a draft may be unfinished: it is not rendered here)",
    tags: ["Emails"],
    access: ["admin"],
    params,
    body: z
      .object({
        display_name: displayNameField.optional(),
        tsx_source: tsxSourceField.optional(),
        theme_id: themeIdSchema.optional(),
      })
      .strict(),
    handler: async ({ auth, params, body, services }) => {
      await requireDraft(services.db, auth.project.id, params.draft_id);
      const theme = body.theme_id !== undefined ? themeChoiceFromJson(body.theme_id) : undefined;
      if (theme) await requireThemeChoice(services.db, auth.project.id, theme);
      const updated = await updateDraft(services.db, auth.project.id, params.draft_id, {
        ...(body.display_name !== undefined ? { displayName: body.display_name } : {}),
        ...(body.tsx_source !== undefined ? { tsxSource: body.tsx_source } : {}),
        ...(theme ? { theme } : {}),
      });
      if (!updated) throw notFound(params.draft_id);
      return { body: { ok: "ok" } };
    },
  }),
  defineRoute({
    method: "DELETE",
    path: "/internal/email-drafts/:draft_id",
    summary: "Delete an e-mail draft",
    tags: ["Emails"],
    access: ["admin"],
    params,
    handler: async ({ auth, params, services }) => {
      if (!(await deleteDraft(services.db, auth.project.id, params.draft_id))) throw notFound(params.draft_id);
      return { body: { ok: "ok" } };
    },
  }),
];
