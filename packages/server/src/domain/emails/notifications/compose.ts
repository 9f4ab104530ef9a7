/**
 * The message of a bulk send: given html with a subject (sent as given, or
 * framed by a theme), or a stored template or draft rendered per recipient.
 */
import { StatusError, type SendEmail } from "@latchkey/shared";
import type { DbOrTx } from "../../../db/connect.ts";
import { loadDraft, loadTemplate, loadTheme } from "../templates/render-stored.ts";
import { markDraftSent } from "../templates/store.ts";
import { themeChoiceFromJson } from "../templates/theme-choice.ts";
import { htmlMessage } from "./html-message.ts";
import type { BulkSend } from "./send.ts";
import { declaredCategoryOf, storedMessageComposer, themedHtmlComposer } from "./stored-message.ts";
import type { ProjectRow } from "../../projects/project-row.ts";

/** The message part of a send-email body (@latchkey/shared api/emails.ts): exactly one of html (with a subject), template_id or draft_id. */
export type MessageRequest = Pick<SendEmail, "html" | "subject" | "template_id" | "draft_id" | "variables" | "theme_id">;

export interface BulkMessage extends Pick<BulkSend, "compose" | "afterQueued"> {
  /** The category a template or draft names with `<NotificationCategory>` (rendered when asked), else null. */
  declaredCategory(): Promise<string | null>;
}

const NONE_DECLARED = () => Promise.resolve(null);

/** How each recipient's copy is made, and what else the send records (a draft is marked sent). */
export async function composeBulkMessage(db: DbOrTx, project: ProjectRow, request: MessageRequest): Promise<BulkMessage> {
  // Ids the body names that the project lacks are 400, worded as other servers of the contract word them.
  const theme = request.theme_id === undefined ? undefined : themeChoiceFromJson(request.theme_id);
  if (theme?.themeId && !(await loadTheme(db, project.id, theme.themeId))) throw new StatusError(400, "No theme found with given id");
  if (request.html !== undefined) {
    const [subject, html] = [request.subject!, request.html];
    if (!theme || theme.noTheme) {
      return { compose: (_recipient, unsubscribeLink) => htmlMessage(subject, html, unsubscribeLink), declaredCategory: NONE_DECLARED };
    }
    return { compose: await themedHtmlComposer(db, project, subject, html, theme), declaredCategory: NONE_DECLARED };
  }
  const stored =
    request.template_id !== undefined
      ? ((await loadTemplate(db, project.id, request.template_id)) ?? notFound("No template found with given template_id"))
      : ((await loadDraft(db, project.id, request.draft_id!)) ?? notFound("No draft found with given draft_id"));
  const message = {
    tsxSource: stored.tsxSource,
    displayName: stored.displayName,
    variables: request.variables ?? {},
    subject: request.subject ?? null,
  };
  const compose = await storedMessageComposer(db, project, message, theme ?? stored);
  const declaredCategory = () => declaredCategoryOf(project, message);
  if (request.template_id !== undefined) return { compose, declaredCategory };
  return { compose, declaredCategory, afterQueued: (tx) => markDraftSent(tx, project.id, stored.id) };
}

function notFound(message: string): never {
  throw new StatusError(400, message);
}
