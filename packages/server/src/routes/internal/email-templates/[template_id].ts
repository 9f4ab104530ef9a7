import { KnownErrors, StatusError, internalEmailsEndpoints } from "@latchkey/shared";
import { requireTemplate, requireThemeChoice } from "../../../domain/emails/templates/lookup.ts";
import { renderStoredEmail } from "../../../domain/emails/templates/render-stored.ts";
import { SAMPLE_UNSUBSCRIBE_LINK, SAMPLE_USER, sampleVariables } from "../../../domain/emails/templates/samples.ts";
import { deleteTemplate, isDefaultTemplateId, updateTemplate } from "../../../domain/emails/templates/store.ts";
import { themeChoiceFromJson } from "../../../domain/emails/templates/theme-choice.ts";
import { templateView } from "../../../domain/emails/templates/views.ts";
import { defineRoute } from "../../../http/route.ts";

const notFound = (id: string) => new StatusError(404, `This project has no e-mail template with id ${id}.`);

export default [
  defineRoute(internalEmailsEndpoints.getEmailTemplate, async ({ auth, params, services }) => ({
    body: templateView(await requireTemplate(services.db, auth.project.id, params.template_id)),
  })),
  defineRoute(internalEmailsEndpoints.updateEmailTemplate, async ({ auth, params, body, services }) => {
    const db = services.db;
    const projectId = auth.project.id;
    // Through the shared server only the built-in wording goes out (code-mail.ts): an edit would never be sent.
    if (auth.project.config.email_config.type === "shared") throw new KnownErrors.RequiresCustomEmailServer();
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
  }),
  defineRoute(internalEmailsEndpoints.deleteEmailTemplate, async ({ auth, params, services }) => {
    const current = await requireTemplate(services.db, auth.project.id, params.template_id);
    if (isDefaultTemplateId(current.id)) {
      throw new StatusError(400, "Built-in e-mail templates cannot be deleted: the platform sends them. Edit this template instead.");
    }
    if (!(await deleteTemplate(services.db, auth.project.id, current.id))) throw notFound(params.template_id);
    return { body: {} };
  }),
];
