/**
 * Stored e-mail themes, templates and drafts, always read and written within
 * one project. The built-in themes and templates are seeded lazily (insert,
 * on conflict do nothing) the first time a project's themes or templates are
 * read or used, so projects made before they existed get them too, and an
 * edited default is never overwritten.
 */
import { COLORFUL_EMAIL_THEME_ID, DARK_EMAIL_THEME_ID, DEFAULT_EMAIL_TEMPLATE_IDS, DEFAULT_EMAIL_THEME_ID } from "@latchkey/shared";
import { and, asc, eq, sql, type SQL } from "drizzle-orm";
import { randomUUID } from "node:crypto";
import type { Db, DbOrTx } from "../../../db/connect.ts";
import type { Events } from "../../../events/transaction.ts";
import { emailDrafts, emailTemplates, emailThemes, type ThemeRow, type TemplateRow, type DraftRow } from "../../../db/schema/index.ts";
import { DEFAULT_TEMPLATES, NEW_DRAFT_SOURCE, NEW_TEMPLATE_SOURCE, type DefaultTemplateKind } from "./default-templates.ts";
import { COLORFUL_THEME_SOURCE, DARK_THEME_SOURCE, LIGHT_THEME_SOURCE } from "./default-themes.ts";
import type { ThemeChoice } from "./theme-choice.ts";

export const DEFAULT_THEMES = [
  { id: DEFAULT_EMAIL_THEME_ID, displayName: "Default Light", tsxSource: LIGHT_THEME_SOURCE },
  { id: DARK_EMAIL_THEME_ID, displayName: "Default Dark", tsxSource: DARK_THEME_SOURCE },
  { id: COLORFUL_EMAIL_THEME_ID, displayName: "Default Colorful", tsxSource: COLORFUL_THEME_SOURCE },
] as const;

const DEFAULT_TEMPLATE_IDS = new Set<string>(Object.values(DEFAULT_EMAIL_TEMPLATE_IDS));

export function isDefaultTemplateId(id: string): boolean {
  return DEFAULT_TEMPLATE_IDS.has(id);
}

/**
 * Gives the project its built-in themes and templates if it lacks them.
 * Themes go first: a project that has its templates has its themes.
 */
export async function ensureDefaults(db: DbOrTx, projectId: string): Promise<void> {
  await db
    .insert(emailThemes)
    .values(DEFAULT_THEMES.map((t) => ({ projectId, id: t.id, displayName: t.displayName, tsxSource: t.tsxSource })))
    .onConflictDoNothing();
  await db
    .insert(emailTemplates)
    .values(
      (Object.keys(DEFAULT_TEMPLATES) as DefaultTemplateKind[]).map((kind) => ({
        projectId,
        id: DEFAULT_EMAIL_TEMPLATE_IDS[kind],
        displayName: DEFAULT_TEMPLATES[kind].displayName,
        tsxSource: DEFAULT_TEMPLATES[kind].tsxSource,
      })),
    )
    .onConflictDoNothing();
}

const touched = { updatedAt: sql`now()` };

// --- Themes ---------------------------------------------------------------

/** Light, dark and colorful, then the project's own themes. */
const builtInThemesFirst = sql`case ${emailThemes.id} when ${DEFAULT_EMAIL_THEME_ID} then 0 when ${DARK_EMAIL_THEME_ID} then 1 when ${COLORFUL_EMAIL_THEME_ID} then 2 else 3 end`;

export function listThemes(db: DbOrTx, projectId: string): Promise<ThemeRow[]> {
  return db
    .select()
    .from(emailThemes)
    .where(eq(emailThemes.projectId, projectId))
    .orderBy(builtInThemesFirst, asc(emailThemes.createdAt), asc(emailThemes.displayName), asc(emailThemes.id));
}

export async function findTheme(db: DbOrTx, projectId: string, id: string): Promise<ThemeRow | null> {
  const [row] = await db
    .select()
    .from(emailThemes)
    .where(and(eq(emailThemes.projectId, projectId), eq(emailThemes.id, id)));
  return row ?? null;
}

/** A new theme starts as a copy of the light default, ready to be changed. */
export async function createTheme(db: DbOrTx, projectId: string, displayName: string): Promise<string> {
  const id = randomUUID();
  await db.insert(emailThemes).values({ projectId, id, displayName, tsxSource: LIGHT_THEME_SOURCE });
  return id;
}

export async function updateTheme(
  db: DbOrTx,
  projectId: string,
  id: string,
  patch: { displayName?: string; tsxSource?: string },
): Promise<ThemeRow | null> {
  const [row] = await db
    .update(emailThemes)
    .set({ ...patch, ...touched })
    .where(and(eq(emailThemes.projectId, projectId), eq(emailThemes.id, id)))
    .returning();
  return row ?? null;
}

// --- Templates ------------------------------------------------------------

export function listTemplates(db: DbOrTx, projectId: string): Promise<TemplateRow[]> {
  return db
    .select()
    .from(emailTemplates)
    .where(eq(emailTemplates.projectId, projectId))
    .orderBy(asc(emailTemplates.createdAt), asc(emailTemplates.displayName), asc(emailTemplates.id));
}

export async function findTemplate(db: DbOrTx, projectId: string, id: string): Promise<TemplateRow | null> {
  const [row] = await db
    .select()
    .from(emailTemplates)
    .where(and(eq(emailTemplates.projectId, projectId), eq(emailTemplates.id, id)));
  return row ?? null;
}

export async function createTemplate(db: DbOrTx, projectId: string, displayName: string): Promise<string> {
  const id = randomUUID();
  await db.insert(emailTemplates).values({ projectId, id, displayName, tsxSource: NEW_TEMPLATE_SOURCE });
  return id;
}

export async function updateTemplate(
  db: DbOrTx,
  projectId: string,
  id: string,
  patch: { tsxSource?: string; theme?: ThemeChoice },
): Promise<TemplateRow | null> {
  const [row] = await db
    .update(emailTemplates)
    .set({ ...(patch.tsxSource !== undefined ? { tsxSource: patch.tsxSource } : {}), ...patch.theme, ...touched })
    .where(and(eq(emailTemplates.projectId, projectId), eq(emailTemplates.id, id)))
    .returning();
  return row ?? null;
}

export async function deleteTemplate(db: DbOrTx, projectId: string, id: string): Promise<boolean> {
  const rows = await db
    .delete(emailTemplates)
    .where(and(eq(emailTemplates.projectId, projectId), eq(emailTemplates.id, id)))
    .returning({ id: emailTemplates.id });
  return rows.length > 0;
}

// --- Drafts ---------------------------------------------------------------

function draftWhere(projectId: string, id: string): SQL {
  return and(eq(emailDrafts.projectId, projectId), eq(emailDrafts.id, id))!;
}

export function listDrafts(db: DbOrTx, projectId: string): Promise<DraftRow[]> {
  return db.select().from(emailDrafts).where(eq(emailDrafts.projectId, projectId)).orderBy(asc(emailDrafts.createdAt), asc(emailDrafts.id));
}

export async function findDraft(db: DbOrTx, projectId: string, id: string): Promise<DraftRow | null> {
  const [row] = await db.select().from(emailDrafts).where(draftWhere(projectId, id));
  return row ?? null;
}

export async function createDraft(
  db: DbOrTx,
  projectId: string,
  input: { displayName: string; tsxSource?: string; theme?: ThemeChoice },
): Promise<string> {
  const [row] = await db
    .insert(emailDrafts)
    .values({ projectId, displayName: input.displayName, tsxSource: input.tsxSource ?? NEW_DRAFT_SOURCE, ...input.theme })
    .returning({ id: emailDrafts.id });
  return row!.id;
}

export async function updateDraft(
  db: DbOrTx,
  projectId: string,
  id: string,
  patch: { displayName?: string; tsxSource?: string; theme?: ThemeChoice },
): Promise<boolean> {
  const rows = await db
    .update(emailDrafts)
    .set({
      ...(patch.displayName !== undefined ? { displayName: patch.displayName } : {}),
      ...(patch.tsxSource !== undefined ? { tsxSource: patch.tsxSource } : {}),
      ...patch.theme,
      ...touched,
    })
    .where(draftWhere(projectId, id))
    .returning({ id: emailDrafts.id });
  return rows.length > 0;
}

export async function deleteDraft(db: DbOrTx, projectId: string, id: string): Promise<boolean> {
  const rows = await db.delete(emailDrafts).where(draftWhere(projectId, id)).returning({ id: emailDrafts.id });
  return rows.length > 0;
}

/** Records that a draft went out (POST /emails/send-email); its list entry then shows sent_at_millis. */
export async function markDraftSent(db: DbOrTx, projectId: string, id: string): Promise<void> {
  await db
    .update(emailDrafts)
    .set({ sentAt: sql`now()`, ...touched })
    .where(draftWhere(projectId, id));
}

/** The built-in themes are seeded again whenever they are missing, so they are never deleted. */
export function isDefaultThemeId(id: string): boolean {
  return DEFAULT_THEMES.some((t) => t.id === id);
}

/**
 * Deletes a theme; templates and drafts it framed take the project's selected theme, in the same
 * transaction. False when the project has no such theme.
 */
export function deleteTheme(events: Events, db: Db, projectId: string, id: string): Promise<boolean> {
  return events.transaction(db, (tx) => deleteThemeIn(tx, projectId, id));
}

async function deleteThemeIn(db: DbOrTx, projectId: string, id: string): Promise<boolean> {
  const rows = await db
    .delete(emailThemes)
    .where(and(eq(emailThemes.projectId, projectId), eq(emailThemes.id, id)))
    .returning({ id: emailThemes.id });
  if (rows.length === 0) return false;
  const selected = { themeId: null, noTheme: false, ...touched };
  await db
    .update(emailTemplates)
    .set(selected)
    .where(and(eq(emailTemplates.projectId, projectId), eq(emailTemplates.themeId, id)));
  await db
    .update(emailDrafts)
    .set(selected)
    .where(and(eq(emailDrafts.projectId, projectId), eq(emailDrafts.themeId, id)));
  return true;
}
