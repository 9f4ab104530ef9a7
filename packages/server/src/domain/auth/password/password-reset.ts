/**
 * Password reset: a code mailed to an address a user signs in with, then a
 * new password set with that code. Asking for a code reveals nothing about
 * who has an account; using it proves the user reads that inbox, so it also
 * verifies the address, and it ends every session (a stolen session must not
 * outlive the reset).
 */
import { KnownErrors } from "@latchkey/shared";
import { and, eq, isNull, sql } from "drizzle-orm";
import { contactChannels, users, verificationCodes } from "../../../db/schema/index.ts";
import { record } from "../../../events/transaction.ts";
import type { Services } from "../../../services.ts";
import { prepareCodeMail, saveCodeMail } from "../../codes/mail-code.ts";
import { checkCode, useCode, type CodeScope } from "../../codes/verification-codes.ts";
import { revokeUserSessions } from "../../sessions/sessions.ts";
import { findAuthEmailChannel, isAuthEmail } from "../../users/record.ts";
import { inTenancy, type Tenancy } from "../../../db/tenancy.ts";
import type { ProjectRow } from "../../projects/project-row.ts";

export interface PasswordResetData {
  user_id: string;
  /** The address the code was mailed to. */
  email: string;
}

function resetScope(project: ProjectRow, branchId: string): CodeScope {
  return { projectId: project.id, branchId, purpose: "password_reset" };
}

/** Mails a reset code when a user signs in with `email`; does nothing otherwise. */
export async function sendResetCode(
  services: Services,
  project: ProjectRow,
  branchId: string,
  email: string,
  callbackUrl: string,
): Promise<void> {
  // Rendered whether or not anyone signs in with the address, so an account takes no longer to answer for
  // than no account (the rendering is most of the time spent); the rate limit bounds the work.
  const prepared = await prepareCodeMail(services.db, services.logger, {
    project,
    branchId,
    purpose: "password_reset",
    to: email,
    callbackUrl,
  });
  const found = await findAuthEmailChannel(services.db, project.id, branchId, email);
  if (!found) return;
  const data: PasswordResetData = { user_id: found.userId, email: found.value };
  // To the address as the user registered it, whatever case was typed here.
  const addressed = { ...prepared, email: { ...prepared.email, to: [found.value] } };
  await services.events.transaction(services.db, (tx) => saveCodeMail(tx, addressed, { ...data }, services.clock.date()));
}

/** Whether the code would work now (counts as an attempt, does not spend it). */
export async function checkResetCode(services: Services, project: ProjectRow, branchId: string, code: string): Promise<void> {
  await checkCode(services, resetScope(project, branchId), code);
}

/** Spends the code and sets the (already hashed) password, atomically. */
export async function resetPassword(
  services: Services,
  project: ProjectRow,
  branchId: string,
  code: string,
  passwordHash: string,
): Promise<void> {
  await useCode<PasswordResetData, void>(services, resetScope(project, branchId), code, async (tx, data) => {
    const t: Tenancy = { projectId: project.id, branchId };
    // The code proves access to one inbox; once that address is no longer how the user
    // signs in (moved away from a lost or stolen mailbox), it resets nothing.
    const [channel] = await tx
      .select({ id: contactChannels.id, isVerified: contactChannels.isVerified })
      .from(contactChannels)
      .where(and(isAuthEmail(project.id, branchId, data.email), eq(contactChannels.userId, data.user_id)))
      .for("update");
    // Throwing keeps the code unspent, and says no more than a code that never existed.
    if (!channel) throw new KnownErrors.VerificationCodeNotFound();
    await tx
      .update(users)
      .set({ passwordHash })
      .where(and(inTenancy(users, t), eq(users.id, data.user_id)));
    if (!channel.isVerified) {
      await tx
        .update(contactChannels)
        .set({ isVerified: true })
        .where(and(inTenancy(contactChannels, t), eq(contactChannels.id, channel.id)));
      await record(tx, { type: "contact_channel.verified", ...t, data: { id: channel.id, user_id: data.user_id } });
    }
    // Other reset links of this user stop working too: one reset ends them all.
    await tx
      .update(verificationCodes)
      .set({ usedAt: services.clock.date() })
      .where(
        and(
          inTenancy(verificationCodes, t),
          eq(verificationCodes.purpose, "password_reset"),
          isNull(verificationCodes.usedAt),
          sql`${verificationCodes.data}->>'user_id' = ${data.user_id}`,
        ),
      );
    await revokeUserSessions(tx, t, data.user_id, null);
    await record(tx, { type: "user.sign_in_methods_changed", projectId: project.id, branchId, data: { id: data.user_id } });
  });
}
