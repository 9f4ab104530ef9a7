/**
 * The mails that carry a code, rendered from the project's built-in
 * template of that kind, in the project's selected theme (edits take effect
 * once the project sends through its own SMTP server). They go to an
 * address, not necessarily to a user yet (a sign-in code may sign a new user
 * up), so templates get a user with no name or address; they cannot be unsubscribed from.
 */
import { DEFAULT_EMAIL_TEMPLATE_IDS } from "@latchkey/shared";
import { DEFAULT_TEMPLATES } from "./default-templates.ts";
import { LIGHT_THEME_SOURCE } from "./default-themes.ts";
import type { DbOrTx } from "../../../db/connect.ts";
import type { RenderInput } from "../render/types.ts";
import { loadTemplate, templateProject, themeSourceFor } from "./render-stored.ts";
import type { ProjectRow } from "../../projects/project-row.ts";

export type CodeMailKind = keyof typeof DEFAULT_EMAIL_TEMPLATE_IDS;

/** The link again, under the name templates written for the wire contract's other servers read. */
const LINK_ALIAS: Record<CodeMailKind, string> = {
  email_verification: "emailVerificationLink",
  password_reset: "passwordResetLink",
  sign_in_code: "magicLink",
  team_invitation: "teamInvitationLink",
  sign_in_invitation: "signInInvitationLink",
};

/** What to render for a code mail (reading the project's template and theme; rendering is the caller's step). */
export async function codeMailRenderInput(
  db: DbOrTx,
  project: ProjectRow,
  kind: CodeMailKind,
  variables: { link: string; otp?: string; teamDisplayName?: string },
): Promise<RenderInput> {
  // A user object even without a user: templates written elsewhere read `user.displayName` unguarded.
  const props = {
    user: { displayName: null, primaryEmail: null },
    project: templateProject(project),
    variables: { ...variables, [LINK_ALIAS[kind]]: variables.link },
  };
  // Through the platform's shared server, only the built-in wording goes out: an edited
  // template would let anyone who makes a project mail any HTML to any address from our sender.
  if (project.config.email_config.type === "shared") {
    return { templateSource: DEFAULT_TEMPLATES[kind].tsxSource, themeSource: LIGHT_THEME_SOURCE, props, unsubscribeLink: null };
  }
  const template = await loadTemplate(db, project.id, DEFAULT_EMAIL_TEMPLATE_IDS[kind]);
  // Built-in templates cannot be deleted, and loadTemplate seeds them.
  if (!template) throw new Error(`The ${kind} e-mail template of project ${project.id} is missing.`);
  return { templateSource: template.tsxSource, themeSource: await themeSourceFor(db, project, template), props, unsubscribeLink: null };
}
