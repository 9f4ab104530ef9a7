import { StatusError, internalEmailsEndpoints } from "@latchkey/shared";
import { DEFAULT_TEMPLATES } from "../../../domain/emails/templates/default-templates.ts";
import { requireTheme } from "../../../domain/emails/templates/lookup.ts";
import { renderOrReject, templateProject } from "../../../domain/emails/templates/render-stored.ts";
import { SAMPLE_UNSUBSCRIBE_LINK, SAMPLE_USER, sampleVariables } from "../../../domain/emails/templates/samples.ts";
import { deleteTheme, isDefaultThemeId, updateTheme } from "../../../domain/emails/templates/store.ts";
import { themeView } from "../../../domain/emails/templates/views.ts";
import { defineRoute } from "../../../http/route.ts";

export default [
  defineRoute(internalEmailsEndpoints.getEmailTheme, async ({ auth, params, services }) => ({
    body: themeView(await requireTheme(services.db, auth.project.id, params.theme_id)),
  })),
  defineRoute(internalEmailsEndpoints.updateEmailTheme, async ({ auth, params, body, services }) => {
    const projectId = auth.project.id;
    await requireTheme(services.db, projectId, params.theme_id);
    if (body.tsx_source !== undefined) {
      // Every mail of the project may pass through this theme: try it on a real message first.
      await renderOrReject({
        templateSource: DEFAULT_TEMPLATES.email_verification.tsxSource,
        themeSource: body.tsx_source,
        props: { user: SAMPLE_USER, project: templateProject(auth.project), variables: sampleVariables() },
        unsubscribeLink: SAMPLE_UNSUBSCRIBE_LINK,
      });
    }
    const row = await updateTheme(services.db, projectId, params.theme_id, {
      ...(body.display_name !== undefined ? { displayName: body.display_name } : {}),
      ...(body.tsx_source !== undefined ? { tsxSource: body.tsx_source } : {}),
    });
    if (!row) throw new StatusError(404, `This project has no e-mail theme with id ${params.theme_id}.`);
    return { body: { display_name: row.displayName } };
  }),
  defineRoute(internalEmailsEndpoints.deleteEmailTheme, async ({ auth, params, services }) => {
    const id = params.theme_id.toLowerCase();
    if (id === auth.project.config.email_theme.toLowerCase()) {
      throw new StatusError(400, "Cannot delete the currently active email theme. Please select a different theme first.");
    }
    if (isDefaultThemeId(id)) {
      throw new StatusError(400, "Built-in e-mail themes cannot be deleted. Edit this theme instead, or select another one.");
    }
    const deleted = await deleteTheme(services.events, services.db, auth.project.id, id);
    if (!deleted) throw new StatusError(404, "No theme found with given id");
    return { body: { success: true as const } };
  }),
];
