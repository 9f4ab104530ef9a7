/** Wire shapes of themes, templates and drafts. */
import type { EmailDraftJson, EmailTemplateJson, EmailThemeJson, EmailThemeListItemJson } from "@latchkey/shared";
import { themeChoiceJson } from "./theme-choice.ts";
import type { ThemeRow, TemplateRow, DraftRow } from "../../../db/schema/index.ts";

export function themeListItemView(row: ThemeRow): EmailThemeListItemJson {
  return { id: row.id, display_name: row.displayName };
}

export function themeView(row: ThemeRow): EmailThemeJson {
  return { id: row.id, display_name: row.displayName, tsx_source: row.tsxSource };
}

export function templateView(row: TemplateRow): EmailTemplateJson {
  return { id: row.id, display_name: row.displayName, tsx_source: row.tsxSource, ...themeChoiceJson(row) };
}

/** `sent_at_millis` is null until the draft has been sent. */
export function draftView(row: DraftRow): EmailDraftJson {
  return {
    id: row.id,
    display_name: row.displayName,
    tsx_source: row.tsxSource,
    ...themeChoiceJson(row),
    sent_at_millis: row.sentAt ? row.sentAt.getTime() : null,
  };
}
