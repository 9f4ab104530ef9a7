/**
 * Loading what a project has stored and rendering it. These are the entry
 * points for everything that sends or previews templated mail (the admin
 * routes, code mails, POST /emails/send-email).
 */
import { DEFAULT_EMAIL_THEME_ID, KnownError, KnownErrors } from "@latchkey/shared";
import { and, eq, inArray } from "drizzle-orm";
import type { DbOrTx } from "../../../db/connect.ts";
import { emailThemes, type ThemeRow, type TemplateRow, type DraftRow } from "../../../db/schema/index.ts";
import { renderEmail } from "../render/render.ts";
import type { RenderInput, RenderedEmail, TemplateProps } from "../render/types.ts";
import { ensureDefaults, findDraft, findTemplate, findTheme } from "./store.ts";
import type { ThemeChoice } from "./theme-choice.ts";
import type { ProjectRow } from "../../projects/project-row.ts";

/** A project's template by id (the built-ins included, seeded on first use), or null. */
export async function loadTemplate(db: DbOrTx, projectId: string, id: string): Promise<TemplateRow | null> {
  const found = await findTemplate(db, projectId, id);
  if (found) return found;
  await ensureDefaults(db, projectId);
  return findTemplate(db, projectId, id);
}

/** A project's theme by id (the built-ins included, seeded on first use), or null. */
export async function loadTheme(db: DbOrTx, projectId: string, id: string): Promise<ThemeRow | null> {
  const found = await findTheme(db, projectId, id);
  if (found) return found;
  await ensureDefaults(db, projectId);
  return findTheme(db, projectId, id);
}

/** A project's draft by id, or null. */
export function loadDraft(db: DbOrTx, projectId: string, id: string): Promise<DraftRow | null> {
  return findDraft(db, projectId, id);
}

/**
 * The TSX of the theme that frames a message with this choice, or null for
 * none: the named theme, else the project's selected theme (config
 * email_theme), else the light default when that one is gone.
 */
export async function themeSourceFor(db: DbOrTx, project: ProjectRow, choice: ThemeChoice): Promise<string | null> {
  if (choice.noTheme) return null;
  const wanted = [...new Set([choice.themeId, project.config.email_theme, DEFAULT_EMAIL_THEME_ID].filter((id): id is string => !!id))];
  for (let attempt = 0; attempt < 2; attempt++) {
    const rows = await db
      .select({ id: emailThemes.id, tsxSource: emailThemes.tsxSource })
      .from(emailThemes)
      .where(and(eq(emailThemes.projectId, project.id), inArray(emailThemes.id, wanted)));
    for (const id of wanted) {
      const row = rows.find((r) => r.id === id.toLowerCase());
      if (row) return row.tsxSource;
    }
    // Not even the light default: this project's themes were never seeded.
    await ensureDefaults(db, project.id);
  }
  throw new Error(`The default e-mail theme of project ${project.id} is missing after seeding.`);
}

/** The project as templates see it, with the logos the theme gets as `projectLogos`. */
export function templateProject(project: ProjectRow): TemplateProps["project"] {
  const { displayName, logoUrl, logoFullUrl, logoDarkModeUrl, logoFullDarkModeUrl } = project;
  return { displayName, logoUrl, logoFullUrl, logoDarkModeUrl, logoFullDarkModeUrl };
}

/**
 * Renders, turning any failure of the stored TSX into EMAIL_RENDERING_ERROR
 * (whose message names what went wrong, for the admin who wrote it).
 */
export async function renderOrReject(input: RenderInput): Promise<RenderedEmail> {
  try {
    return await renderEmail(input);
  } catch (error) {
    if (error instanceof KnownError) throw error;
    throw new KnownErrors.EmailRenderingError(error instanceof Error ? error.message : String(error));
  }
}

export interface RenderFor {
  user: TemplateProps["user"];
  variables?: Record<string, unknown>;
  /** Null for mail that cannot be turned off. */
  unsubscribeLink: string | null;
  /** Overrides the template's or draft's own theme choice. */
  theme?: ThemeChoice;
}

/**
 * Renders a stored template or draft (or anything shaped like one) for one
 * recipient, framed by its theme. Throws EMAIL_RENDERING_ERROR if its TSX
 * (or its theme's) does not render.
 */
export async function renderStoredEmail(
  db: DbOrTx,
  project: ProjectRow,
  message: Pick<TemplateRow, "tsxSource" | "themeId" | "noTheme">,
  recipient: RenderFor,
): Promise<RenderedEmail> {
  const themeSource = await themeSourceFor(db, project, recipient.theme ?? message);
  return renderOrReject({
    templateSource: message.tsxSource,
    themeSource,
    props: { user: recipient.user, project: templateProject(project), variables: recipient.variables ?? {} },
    unsubscribeLink: recipient.unsubscribeLink,
  });
}
