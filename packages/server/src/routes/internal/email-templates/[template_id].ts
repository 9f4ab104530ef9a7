import { uuidSchema } from "@latchkey/shared";
import { z } from "zod";
import { requireTemplate, requireThemeChoice } from "../../../domain/emails/templates/lookup.ts";
import { renderStoredEmail } from "../../../domain/emails/templates/render-stored.ts";
import { SAMPLE_UNSUBSCRIBE_LINK, SAMPLE_USER, sampleVariables } from "../../../domain/emails/templates/samples.ts";
import { themeIdSchema, tsxSourceField } from "../../../domain/emails/templates/schemas.ts";
import { deleteTemplate, isDefaultTemplateId, updateTemplate } from "../../../domain/emails/templates/store.ts";
import { themeChoiceFromJson } from "../../../domain/emails/templates/theme-choice.ts";
import { templateView } from "../../../domain/emails/templates/views.ts";
import { StatusError } from "../../../http/errors.ts";
import { defineRoute } from "../../../http/route.ts";

const params = z.object({ template_id: uuidSchema });

const notFound = (id: string) => new StatusError(404, `This project has no e-mail template with id ${id}.`);

export default [
  defineRoute({
    method: "GET",
    path: "/internal/email-templates/:template_id",
    summary: "Get one e-mail template with its TSX source",
    tags: ["Emails"],
    access: ["admin"],
    params,
    handler: async ({ auth, params, services }) => ({
      body: templateView(await requireTemplate(services.db, auth.project.id, params.template_id)),
    }),
  }),
  defineRoute({
    method: "PATCH",
    path: "/internal/email-templates/:template_id",
    summary: "Change a template's TSX or theme; answers with the result rendered for a sample user (nothing is saved if it does not render)",
    tags: ["Emails"],
    access: ["admin"],
    params,
    body: z.object({ tsx_source: tsxSourceField.optional(), theme_id: themeIdSchema.optional() }).strict(),
    handler: async ({ auth, params, body, services }) => {
      const db = services.db;
      const projectId = auth.project.id;
      const current = await requireTemplate(db, projectId, params.template_id);
      const theme = body.theme_id !== undefined ? themeChoiceFromJson(body.theme_id) : current;
      await requireThemeChoice(db, projectId, theme);
      const next = { tsxSource: body.tsx_source ?? current.tsxSource, themeId: theme.themeId, noTheme: theme.noTheme };
      const rendered = await renderStoredEmail(db, auth.project, next, {
        user: SAMPLE_USER,
        variables: sampleVariables(),
        // The built-in templates carry codes, which a user cannot unsubscribe from.
        unsubscribeLink: isDefaultTemplateId(current.id) ? null : SAMPLE_UNSUBSCRIBE_LINK,
      });
      const saved = await updateTemplate(db, projectId, current.id, {
        ...(body.tsx_source !== undefined ? { tsxSource: body.tsx_source } : {}),
        theme: { themeId: theme.themeId, noTheme: theme.noTheme },
      });
      if (!saved) throw notFound(params.template_id);
      return { body: { rendered_html: rendered.html } };
    },
  }),
  defineRoute({
    method: "DELETE",
    path: "/internal/email-templates/:template_id",
    summary: "Delete an e-mail template (the built-in ones cannot be deleted, only edited)",
    tags: ["Emails"],
    access: ["admin"],
    params,
    handler: async ({ auth, params, services }) => {
      const current = await requireTemplate(services.db, auth.project.id, params.template_id);
      if (isDefaultTemplateId(current.id)) {
        throw new StatusError(400, "Built-in e-mail templates cannot be deleted: the platform sends them. Edit this template instead.");
      }
      if (!(await deleteTemplate(services.db, auth.project.id, current.id))) throw notFound(params.template_id);
      return { body: {} };
    },
  }),
];
