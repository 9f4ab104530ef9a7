import { StatusError, internalEmailsEndpoints } from "@latchkey/shared";
import { requireDraft, requireThemeChoice } from "../../../domain/emails/templates/lookup.ts";
import { deleteDraft, updateDraft } from "../../../domain/emails/templates/store.ts";
import { themeChoiceFromJson } from "../../../domain/emails/templates/theme-choice.ts";
import { draftView } from "../../../domain/emails/templates/views.ts";
import { defineRoute } from "../../../http/route.ts";

const notFound = (id: string) => new StatusError(404, `This project has no e-mail draft with id ${id}.`);
const OK = { ok: "ok" } as const;

export default [
  defineRoute(internalEmailsEndpoints.getEmailDraft, async ({ auth, params, services }) => ({
    body: draftView(await requireDraft(services.db, auth.project.id, params.draft_id)),
  })),
  defineRoute(internalEmailsEndpoints.updateEmailDraft, async ({ auth, params, body, services }) => {
    await requireDraft(services.db, auth.project.id, params.draft_id);
    const theme = body.theme_id !== undefined ? themeChoiceFromJson(body.theme_id) : undefined;
    if (theme) await requireThemeChoice(services.db, auth.project.id, theme);
    const updated = await updateDraft(services.db, auth.project.id, params.draft_id, {
      ...(body.display_name !== undefined ? { displayName: body.display_name } : {}),
      ...(body.tsx_source !== undefined ? { tsxSource: body.tsx_source } : {}),
      ...(theme ? { theme } : {}),
    });
    if (!updated) throw notFound(params.draft_id);
    return { body: OK };
  }),
  defineRoute(internalEmailsEndpoints.deleteEmailDraft, async ({ auth, params, services }) => {
    if (!(await deleteDraft(services.db, auth.project.id, params.draft_id))) throw notFound(params.draft_id);
    return { body: OK };
  }),
];
