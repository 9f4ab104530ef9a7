/**
 * The contract between stored e-mail TSX (themes, templates, drafts) and the
 * renderer that runs it in a sandbox.
 *
 * A template or draft module must `export function EmailTemplate(props)`
 * and may set its subject with `export function subject(props)` (returning
 * a string) or `export const subject = "…"`. A theme module must
 * `export function EmailTheme({ children, unsubscribeLink })`. Modules may
 * import from "react" and "@react-email/components", nothing else.
 */

/** What a template or draft receives as props. */
export interface TemplateProps {
  user: { displayName: string | null; primaryEmail: string | null } | null;
  project: { displayName: string };
  variables: Record<string, unknown>;
}

export interface RenderInput {
  /** TSX of the template or draft. */
  templateSource: string;
  /** TSX of the theme that frames the message, or null to send it unframed. */
  themeSource: string | null;
  props: TemplateProps;
  /** Passed to the theme (e.g. for a footer link); null for mail that cannot be turned off. */
  unsubscribeLink: string | null;
}

export interface RenderedEmail {
  html: string;
  /** A plain-text version of the same message. */
  text: string;
  /** What the template's `subject` export gave, or null when it has none. */
  subject: string | null;
}
