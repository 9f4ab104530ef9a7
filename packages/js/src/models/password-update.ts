/** A password change with the old password checked: the signed-in user's, or any user's from a server. */
import { KnownErrors } from "@latchkey/shared/known-errors/index";
import type { Session } from "../session/session.ts";
import type { UserContext } from "./user-fields.ts";

export type PasswordUpdateOptions = { oldPassword: string; newPassword: string };

/**
 * What a change may be refused with: PasswordConfirmationMismatch when the old password is wrong
 * (the wire's code for it; its message speaks of a repeated password, so say "wrong current
 * password" to the user), PasswordRequirementsNotMet for a weak new one.
 */
export type PasswordUpdateRefusal =
  InstanceType<typeof KnownErrors.PasswordConfirmationMismatch> | InstanceType<typeof KnownErrors.PasswordRequirementsNotMet>;

/** Changes the password of the session's user; resolves with the refusal, or nothing when changed. */
export async function updatePasswordInSession(
  context: Pick<UserContext, "api" | "accessType">,
  session: Session,
  options: PasswordUpdateOptions,
): Promise<PasswordUpdateRefusal | void> {
  try {
    await context.api.call("POST /auth/password/update", {
      accessType: context.accessType,
      session,
      body: { old_password: options.oldPassword, new_password: options.newPassword },
    });
  } catch (error) {
    if (error instanceof KnownErrors.PasswordConfirmationMismatch || error instanceof KnownErrors.PasswordRequirementsNotMet) {
      return error;
    }
    throw error;
  }
}
