import { emailsEndpoints } from "@latchkey/shared";
import { requireTemplate, requireThemeChoice } from "../../domain/emails/templates/lookup.ts";
import { renderOrReject, templateProject, themeSourceFor } from "../../domain/emails/templates/render-stored.ts";
import { SAMPLE_UNSUBSCRIBE_LINK, SAMPLE_USER, sampleVariables } from "../../domain/emails/templates/samples.ts";
import { themeChoiceFromJson, type ThemeChoice } from "../../domain/emails/templates/theme-choice.ts";
import { defineRoute } from "../../http/route.ts";

const PROJECT_THEME: ThemeChoice = { themeId: null, noTheme: false };

export default [
  defineRoute(emailsEndpoints.renderEmail, async ({ auth, body, services }) => {
    const db = services.db;
    const template = body.template_id !== undefined ? await requireTemplate(db, auth.project.id, body.template_id) : null;
    let themeSource: string | null;
    if (body.theme_tsx_source !== undefined) {
      themeSource = body.theme_tsx_source;
    } else {
      const asked = body.theme_id !== undefined ? themeChoiceFromJson(body.theme_id) : null;
      if (asked) await requireThemeChoice(db, auth.project.id, asked);
      const choice = asked ?? template ?? PROJECT_THEME;
      themeSource = await themeSourceFor(db, auth.project, choice);
    }
    const rendered = await renderOrReject({
      templateSource: template?.tsxSource ?? body.template_tsx_source!,
      themeSource,
      props: { user: SAMPLE_USER, project: templateProject(auth.project), variables: sampleVariables(body.variables) },
      unsubscribeLink: SAMPLE_UNSUBSCRIBE_LINK,
    });
    return { body: { html: rendered.html, ...(rendered.subject !== null ? { subject: rendered.subject } : {}) } };
  }),
];
