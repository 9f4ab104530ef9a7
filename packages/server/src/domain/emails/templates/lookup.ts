/**
 * Lookups that answer "not found" the way the admin routes do (404 plain
 * text), for ids in the path and ids a request body refers to.
 */
import { StatusError } from "@latchkey/shared";
import type { DbOrTx } from "../../../db/connect.ts";
import { loadDraft, loadTemplate, loadTheme } from "./render-stored.ts";
import type { ThemeChoice } from "./theme-choice.ts";
import type { ThemeRow, TemplateRow, DraftRow } from "../../../db/schema/index.ts";

export async function requireTheme(db: DbOrTx, projectId: string, id: string): Promise<ThemeRow> {
  const row = await loadTheme(db, projectId, id);
  if (!row) throw new StatusError(404, `This project has no e-mail theme with id ${id}.`);
  return row;
}

export async function requireTemplate(db: DbOrTx, projectId: string, id: string): Promise<TemplateRow> {
  const row = await loadTemplate(db, projectId, id);
  if (!row) throw new StatusError(404, `This project has no e-mail template with id ${id}.`);
  return row;
}

export async function requireDraft(db: DbOrTx, projectId: string, id: string): Promise<DraftRow> {
  const row = await loadDraft(db, projectId, id);
  if (!row) throw new StatusError(404, `This project has no e-mail draft with id ${id}.`);
  return row;
}

/** A theme choice a request makes must name one of the project's themes. */
export async function requireThemeChoice(db: DbOrTx, projectId: string, choice: ThemeChoice): Promise<void> {
  if (choice.themeId) await requireTheme(db, projectId, choice.themeId);
}
