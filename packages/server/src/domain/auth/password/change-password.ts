/**
 * A signed-in user changing their password: the old one checked, the new one
 * written, and every other session of theirs ended in the same transaction,
 * since changing the password is how one locks out whoever else got in.
 */
import { KnownErrors } from "@latchkey/shared";
import type { Services } from "../../../services.ts";
import type { ProjectRow } from "../../projects/project-row.ts";
import { revokeUserSessions } from "../../sessions/sessions.ts";
import type { UserRecord } from "../../users/record.ts";
import { updateUser } from "../../users/update.ts";
import { checkPasswordRules, hashPassword, verifyPassword } from "./passwords.ts";

export async function changePassword(
  services: Pick<Services, "db" | "events">,
  project: ProjectRow,
  branchId: string,
  user: UserRecord,
  currentSessionId: string | null,
  passwords: { old_password: string; new_password: string },
): Promise<void> {
  if (user.passwordHash === null) throw new KnownErrors.UserDoesNotHavePassword();
  if (!(await verifyPassword(user.passwordHash, passwords.old_password))) throw new KnownErrors.PasswordConfirmationMismatch();
  checkPasswordRules(passwords.new_password);
  const passwordHash = await hashPassword(passwords.new_password);
  await services.events.transaction(services.db, async (tx) => {
    await updateUser(tx, project, branchId, user, { passwordHash });
    await revokeUserSessions(tx, { projectId: project.id, branchId }, user.id, currentSessionId);
  });
}
