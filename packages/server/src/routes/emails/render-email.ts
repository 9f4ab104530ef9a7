import { uuidSchema } from "@latchkey/shared";
import { z } from "zod";
import { requireTemplate, requireThemeChoice } from "../../domain/emails/templates/lookup.ts";
import { renderOrReject, themeSourceFor } from "../../domain/emails/templates/render-stored.ts";
import { SAMPLE_UNSUBSCRIBE_LINK, SAMPLE_USER, sampleVariables } from "../../domain/emails/templates/samples.ts";
import { themeIdSchema, tsxSourceField, variablesField } from "../../domain/emails/templates/schemas.ts";
import { themeChoiceFromJson, type ThemeChoice } from "../../domain/emails/templates/theme-choice.ts";
import { defineRoute } from "../../http/route.ts";

/**
 * A preview: the template by id or as TSX, framed by a theme by id (false:
 * none) or as TSX; without a theme, the template's own choice (or, for TSX,
 * the project's selected theme). Variables default to sample values.
 */
const body = z
  .object({
    theme_id: themeIdSchema.optional(),
    theme_tsx_source: tsxSourceField.optional(),
    template_id: uuidSchema.optional(),
    template_tsx_source: tsxSourceField.optional(),
    variables: variablesField.optional(),
  })
  .strict()
  .superRefine((b, ctx) => {
    if ((b.template_id === undefined) === (b.template_tsx_source === undefined)) {
      ctx.addIssue({ code: "custom", path: [], message: "must contain exactly one of template_id and template_tsx_source" });
    }
    if (b.theme_id !== undefined && b.theme_tsx_source !== undefined) {
      ctx.addIssue({ code: "custom", path: [], message: "must not contain both theme_id and theme_tsx_source" });
    }
  });

const PROJECT_THEME: ThemeChoice = { themeId: null, noTheme: false };

export default [
  defineRoute({
    method: "POST",
    path: "/emails/render-email",
    summary: "Preview an e-mail: a template (stored or as TSX) in a theme, rendered for a sample user",
    tags: ["Emails"],
    access: ["admin"],
    body,
    handler: async ({ auth, body, services }) => {
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
        props: { user: SAMPLE_USER, project: { displayName: auth.project.displayName }, variables: sampleVariables(body.variables) },
        unsubscribeLink: SAMPLE_UNSUBSCRIBE_LINK,
      });
      return { body: { html: rendered.html, ...(rendered.subject !== null ? { subject: rendered.subject } : {}) } };
    },
  }),
];
