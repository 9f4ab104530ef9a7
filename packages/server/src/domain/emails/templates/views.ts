/** Wire shapes of themes, templates and drafts (WIRE §2.7). */
import type { DraftRow, TemplateRow, ThemeRow } from "./store.ts";
import { themeChoiceJson } from "./theme-choice.ts";

export function themeListItemView(row: ThemeRow) {
  return { id: row.id, display_name: row.displayName };
}

export function themeView(row: ThemeRow) {
  return { id: row.id, display_name: row.displayName, tsx_source: row.tsxSource };
}

export function templateView(row: TemplateRow) {
  return { id: row.id, display_name: row.displayName, tsx_source: row.tsxSource, ...themeChoiceJson(row) };
}

/** `sent_at_millis` only once the draft has been sent. */
export function draftView(row: DraftRow) {
  return {
    id: row.id,
    display_name: row.displayName,
    tsx_source: row.tsxSource,
    ...themeChoiceJson(row),
    ...(row.sentAt ? { sent_at_millis: row.sentAt.getTime() } : {}),
  };
}
