/**
 * Mailing a code: a fresh code for its flow, and the message carrying it as
 * a link `<callback_url>?code=<code>` (plus, for sign-in, the part a user
 * types), queued in the caller's transaction. The caller kicks the queue
 * once the transaction has committed.
 */
import { EMAIL_CODE_EXPIRATION_MILLIS } from "@latchkey/shared";
import type { DbOrTx } from "../../db/connect.ts";
import { codeEmail } from "../emails/code-emails.ts";
import { enqueueEmail } from "../emails/queue.ts";
import type { ProjectRow } from "../projects/projects.ts";
import { createCode, splitSignInCode, type CodePurpose } from "./verification-codes.ts";

const EMAIL_KINDS = {
  contact_channel_verification: "email_verification",
  otp_sign_in: "sign_in_code",
  password_reset: "password_reset",
} as const satisfies Partial<Record<CodePurpose, string>>;

export interface MailedCode {
  code: string;
  /** The 39 characters the client keeps for a typed sign-in code. */
  nonce: string;
}

export async function mailCode(
  tx: DbOrTx,
  input: {
    project: ProjectRow;
    branchId: string;
    purpose: keyof typeof EMAIL_KINDS;
    to: string;
    callbackUrl: string;
    data: Record<string, unknown>;
  },
): Promise<MailedCode> {
  const { code } = await createCode(
    tx,
    { projectId: input.project.id, branchId: input.branchId, purpose: input.purpose },
    input.data,
    EMAIL_CODE_EXPIRATION_MILLIS,
  );
  const link = new URL(input.callbackUrl);
  link.searchParams.set("code", code);
  const { otp, nonce } = splitSignInCode(code);
  const kind = EMAIL_KINDS[input.purpose];
  const common = { projectName: input.project.displayName, to: input.to, link: link.toString() };
  await enqueueEmail(tx, input.project.id, codeEmail(kind === "sign_in_code" ? { kind, ...common, otp } : { kind, ...common }));
  return { code, nonce };
}
