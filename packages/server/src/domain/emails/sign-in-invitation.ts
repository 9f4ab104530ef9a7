/**
 * The sign-in invitation (POST /internal/send-sign-in-invitation): the
 * project's sign-in invitation template, linking the callback URL the caller
 * gave, as given (it carries no code). Like the code mails, a template that
 * fails to render still lets the invitation out in the built-in wording.
 */
import type { Logger } from "pino";
import type { Db } from "../../db/connect.ts";
import type { Events } from "../../events/transaction.ts";
import type { Clock } from "../../lib/clock.ts";
import type { ProjectRow } from "../projects/project-row.ts";
import { codeEmail } from "./code-emails.ts";
import { enqueueEmail } from "./queue.ts";
import { renderEmail } from "./render/render.ts";
import type { OutgoingEmail } from "./smtp.ts";
import { codeMailRenderInput } from "./templates/code-mail.ts";

export async function sendSignInInvitation(
  deps: { db: Db; events: Events; clock: Clock; logger: Logger },
  project: ProjectRow,
  input: { to: string; link: string },
): Promise<void> {
  const plain = codeEmail({ kind: "sign_in_invitation", projectName: project.displayName, to: input.to, link: input.link });
  // The project's name stands in for the team the invitation's template may name.
  const variables = { link: input.link, teamDisplayName: project.displayName };
  const renderInput = await codeMailRenderInput(deps.db, project, "sign_in_invitation", variables);
  let email: OutgoingEmail;
  try {
    const rendered = await renderEmail(renderInput);
    email = { to: [input.to], subject: rendered.subject?.trim() || plain.subject, html: rendered.html, text: rendered.text };
  } catch (error) {
    deps.logger.warn(
      { projectId: project.id, templateKind: "sign_in_invitation", error: error instanceof Error ? error.message : String(error) },
      "e-mail template failed to render; sent the built-in message instead",
    );
    email = plain;
  }
  await deps.events.transaction(deps.db, (tx) => enqueueEmail(tx, project.id, email, deps.clock.date()));
}
