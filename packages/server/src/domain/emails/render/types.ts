/**
 * The contract between stored e-mail TSX (themes, templates, drafts) and the
 * renderer that runs it in a sandbox.
 *
 * A template or draft module must `export function EmailTemplate(props)`
 * and may set its subject with `export function subject(props)` (returning
 * a string) or `export const subject = "…"`. A theme module must
 * `export function EmailTheme({ children, unsubscribeLink, projectLogos })`. Modules may
 * import from "react", "@react-email/components", "arktype" and the
 * helpers module of the wire contract's templates ("@stackframe/emails":
 * `<Subject value>` sets the subject when there is no `subject` export,
 * `<NotificationCategory value>` names the category, `<ProjectLogo>`),
 * nothing else.
 */

/** What a template or draft receives as props. */
export interface TemplateProps {
  user: { displayName: string | null; primaryEmail: string | null } | null;
  /** The logo URLs reach the theme as `projectLogos` (and a `<ProjectLogo>` without `data`). */
  project: {
    displayName: string;
    logoUrl?: string | null;
    logoFullUrl?: string | null;
    logoDarkModeUrl?: string | null;
    logoFullDarkModeUrl?: string | null;
  };
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
  /** What the template's `subject` export gave, else what its `<Subject>` said, or null when it has neither. */
  subject: string | null;
  /** What the template's `<NotificationCategory>` said, or null. */
  notificationCategory: string | null;
}
