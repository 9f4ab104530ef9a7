/**
 * Messages rendered by the e-mail renderer for each recipient: a stored
 * template or draft, or caller-written HTML framed by a theme. The theme is
 * looked up once per send, not once per recipient.
 */
import type { DbOrTx } from "../../../db/connect.ts";
import { renderOrReject, templateProject, themeSourceFor } from "../templates/render-stored.ts";
import { SAMPLE_USER } from "../templates/samples.ts";
import type { ThemeChoice } from "../templates/theme-choice.ts";
import type { Recipient } from "./recipients.ts";
import type { ComposedEmail } from "./send.ts";
import type { ProjectRow } from "../../projects/project-row.ts";

export interface StoredMessage {
  tsxSource: string;
  /** Shown as the subject when neither the request nor the template sets one. */
  displayName: string;
  variables: Record<string, unknown>;
  /** The request's subject, which wins over the template's own. */
  subject: string | null;
}

export type Composer = (recipient: Recipient, unsubscribeLink: string | null) => Promise<ComposedEmail>;

export async function storedMessageComposer(
  db: DbOrTx,
  project: ProjectRow,
  message: StoredMessage,
  theme: ThemeChoice,
): Promise<Composer> {
  const themeSource = await themeSourceFor(db, project, theme);
  return async (recipient, unsubscribeLink) => {
    const rendered = await renderOrReject({
      templateSource: message.tsxSource,
      themeSource,
      props: {
        user: { displayName: recipient.displayName, primaryEmail: recipient.primaryEmail },
        project: templateProject(project),
        variables: message.variables,
      },
      unsubscribeLink,
    });
    return { subject: message.subject ?? rendered.subject ?? message.displayName, html: rendered.html, text: rendered.text };
  };
}

/**
 * The category the message names with `<NotificationCategory>`: it decides who is skipped and whether
 * the theme gets an unsubscribe link, so it is needed before any copy is rendered. One render of the
 * template alone, for the sample recipient, tells it (a category does not depend on who reads the mail).
 */
export async function declaredCategoryOf(project: ProjectRow, message: StoredMessage): Promise<string | null> {
  const rendered = await renderOrReject({
    templateSource: message.tsxSource,
    themeSource: null,
    props: { user: SAMPLE_USER, project: templateProject(project), variables: message.variables },
    unsubscribeLink: null,
  });
  return rendered.notificationCategory;
}

/** Caller-written HTML as the content of a themed message: the template only places it, unchanged. */
const HTML_CONTENT_SOURCE = `import * as React from "react";

export function EmailTemplate({ variables }) {
  return <div dangerouslySetInnerHTML={{ __html: String(variables.html) }} />;
}
`;

/** Frames HTML in a theme; a whole document contributes what is inside its body. */
export function themedHtmlComposer(db: DbOrTx, project: ProjectRow, subject: string, html: string, theme: ThemeChoice): Promise<Composer> {
  const message = { tsxSource: HTML_CONTENT_SOURCE, displayName: subject, variables: { html: bodyContent(html) }, subject };
  return storedMessageComposer(db, project, message, theme);
}

/** Plain index lookups, not a regular expression: a backtracking pattern takes quadratic time on crafted HTML. */
function bodyContent(html: string): string {
  const lower = html.toLowerCase();
  const open = lower.indexOf("<body");
  const openEnd = open < 0 ? -1 : lower.indexOf(">", open);
  const close = lower.lastIndexOf("</body");
  return openEnd >= 0 && close > openEnd ? html.slice(openEnd + 1, close) : html;
}
