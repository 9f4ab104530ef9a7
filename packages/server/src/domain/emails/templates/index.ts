/**
 * E-mail themes, templates and drafts: what other modules use. Sending a
 * stored template or draft: load it (loadTemplate / loadDraft, null when the
 * project has none with that id), then renderStoredEmail for each recipient
 * (throws EMAIL_RENDERING_ERROR when its TSX does not render); after sending
 * a draft, markDraftSent.
 */
export { codeMailRenderInput, type CodeMailKind } from "./code-mail.ts";
export { loadDraft, loadTemplate, loadTheme, renderOrReject, renderStoredEmail, themeSourceFor, type RenderFor } from "./render-stored.ts";
export { ensureDefaults, markDraftSent } from "./store.ts";
export type { DraftRow, TemplateRow, ThemeRow } from "../../../db/schema/index.ts";
export { themeChoiceFromJson, themeChoiceJson, type ThemeChoice } from "./theme-choice.ts";
