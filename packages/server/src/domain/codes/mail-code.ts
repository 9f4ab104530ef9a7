/**
 * Mailing a code, in two steps. `prepareCodeMail`, outside any transaction,
 * picks a fresh code and renders the message carrying it as a link
 * `<callback_url>?code=<code>` (plus, for sign-in, the part a user types):
 * rendering runs an admin's template in the sandbox and takes milliseconds
 * to seconds, which must not hold a transaction (on embedded PGlite, one
 * open transaction holds up every other query). `saveCodeMail`, in the
 * caller's transaction (opened by Events.transaction), stores the code's
 * digest with what using it will need and queues the message, which the
 * queue sends once that transaction commits.
 *
 * The message is the project's template of that kind in the project's theme.
 * If an admin's edit made that template (or theme) fail, the user still gets
 * their code: in the plain built-in wording, with a warning in the log.
 */
import { EMAIL_CODE_EXPIRATION_MILLIS } from "@latchkey/shared";
import type { Logger } from "pino";
import type { DbOrTx } from "../../db/connect.ts";
import type { EventTx } from "../../events/transaction.ts";
import { codeEmail } from "../emails/code-emails.ts";
import { enqueueEmail } from "../emails/queue.ts";
import type { OutgoingEmail } from "../emails/smtp.ts";
import { renderEmail } from "../emails/render/render.ts";
import { codeMailRenderInput, type CodeMailKind } from "../emails/templates/code-mail.ts";
import { createCode, newCode, splitSignInCode, type CodePurpose, type CodeScope } from "./verification-codes.ts";
import { escapeRegExp } from "../../lib/regex.ts";
import type { ProjectRow } from "../projects/project-row.ts";

const EMAIL_KINDS = {
  contact_channel_verification: "email_verification",
  otp_sign_in: "sign_in_code",
  password_reset: "password_reset",
  team_invitation: "team_invitation",
} as const satisfies Partial<Record<CodePurpose, CodeMailKind>>;

export type MailedCodePurpose = keyof typeof EMAIL_KINDS;

/** A code and its rendered message, not stored or queued yet. */
export interface PreparedCodeMail {
  scope: CodeScope;
  code: string;
  /** The 39 characters the client keeps for a typed sign-in code. */
  nonce: string;
  /** The address the message goes to. */
  to: string;
  email: OutgoingEmail;
}

interface CodeMailCommon {
  project: ProjectRow;
  branchId: string;
  to: string;
  callbackUrl: string;
}

/** What to mail; an invitation also names the team it is for. */
export type CodeMailRequest =
  | (CodeMailCommon & { purpose: Exclude<MailedCodePurpose, "team_invitation"> })
  | (CodeMailCommon & { purpose: "team_invitation"; teamDisplayName: string });

export async function prepareCodeMail(db: DbOrTx, logger: Logger, input: CodeMailRequest): Promise<PreparedCodeMail> {
  const code = newCode();
  const link = new URL(input.callbackUrl);
  link.searchParams.set("code", code);
  const { otp, nonce } = splitSignInCode(code);
  const kind = EMAIL_KINDS[input.purpose];
  const common = { projectName: input.project.displayName, to: input.to, link: link.toString() };
  const teamDisplayName = input.purpose === "team_invitation" ? input.teamDisplayName : undefined;
  const variables = {
    link: common.link,
    ...(kind === "sign_in_code" ? { otp } : {}),
    ...(teamDisplayName !== undefined ? { teamDisplayName } : {}),
  };
  // Reading the template is not guarded: a database error fails the request as usual.
  const renderInput = await codeMailRenderInput(db, input.project, kind, variables);
  let email: OutgoingEmail;
  try {
    const rendered = await renderEmail(renderInput);
    email = {
      to: [input.to],
      // A template without a subject still gets one that names the project.
      subject: rendered.subject?.trim() || plainEmail(kind, common, otp, teamDisplayName).subject,
      html: rendered.html,
      text: rendered.text,
    };
  } catch (error) {
    // Whatever broke the rendering (the TSX, or the renderer itself), the user gets their code.
    logger.warn(
      { projectId: input.project.id, templateKind: kind, error: redact(error, [common.link, code, otp]) },
      "e-mail template failed to render; sent the built-in message instead",
    );
    email = plainEmail(kind, common, otp, teamDisplayName);
  }
  return { scope: { projectId: input.project.id, branchId: input.branchId, purpose: input.purpose }, code, nonce, to: input.to, email };
}

/**
 * Stores the prepared code with `data` (what using it will need) and queues
 * its message, in the caller's transaction. Returns the code's row id.
 */
export async function saveCodeMail(tx: EventTx, prepared: PreparedCodeMail, data: Record<string, unknown>, now: Date): Promise<string> {
  const expiresAt = new Date(now.getTime() + EMAIL_CODE_EXPIRATION_MILLIS);
  const { id } = await createCode(tx, prepared.scope, data, expiresAt, prepared.code);
  await enqueueEmail(tx, prepared.scope.projectId, prepared.email, now);
  return id;
}

function plainEmail(
  kind: CodeMailKind,
  common: { projectName: string; to: string; link: string },
  otp: string,
  teamDisplayName: string | undefined,
): OutgoingEmail {
  if (kind === "sign_in_code") return codeEmail({ kind, ...common, otp });
  if (kind === "team_invitation") return codeEmail({ kind, ...common, teamDisplayName: teamDisplayName ?? "" });
  return codeEmail({ kind, ...common });
}

/** The error's message without the link or the code in it (a template may well print its variables). */
function redact(error: unknown, secrets: string[]): string {
  const text = error instanceof Error ? error.message : String(error);
  // Longest first, in any casing (the typed part is shown upper-case).
  const pattern = [...secrets]
    .sort((a, b) => b.length - a.length)
    .map(escapeRegExp)
    .join("|");
  return text.replace(new RegExp(pattern, "gi"), "[redacted]");
}
