/** Setting a password for a user who has none yet (e.g. one who signed up with a one-time code). */
import { StatusError } from "@latchkey/shared";
import type { Services } from "../../../services.ts";
import type { UserRecord } from "../../users/record.ts";
import { updateUser } from "../../users/update.ts";
import { checkPasswordRules, hashPassword } from "./passwords.ts";
import type { ProjectRow } from "../../projects/project-row.ts";

/** Hashes outside the transaction (the slow part), then writes the password in one. */
export async function setFirstPassword(
  services: Services,
  project: ProjectRow,
  branchId: string,
  user: UserRecord,
  password: string,
): Promise<void> {
  if (user.passwordHash !== null) {
    throw new StatusError(400, "This user already has a password. Change it with /auth/password/update.");
  }
  checkPasswordRules(password);
  const passwordHash = await hashPassword(password);
  // A password signs in with the primary e-mail, so that e-mail must be enabled for sign-in.
  await services.events.transaction(services.db, (tx) =>
    updateUser(tx, project, branchId, user, {
      passwordHash,
      ...(user.primaryEmail && !user.primaryEmailAuthEnabled ? { primaryEmailAuthEnabled: true } : {}),
    }),
  );
}
