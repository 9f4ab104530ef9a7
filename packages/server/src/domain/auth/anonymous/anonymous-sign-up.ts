/**
 * Anonymous users let an app keep state for a visitor before sign-up; their
 * tokens have their own audience and are refused unless a request opts in.
 */
import type { Services } from "../../../services.ts";
import type { ProjectRow } from "../../projects/projects.ts";
import { signIn } from "../../sessions/issue.ts";
import { createUser } from "../../users/create.ts";

/** A new anonymous user, signed in, in one transaction. */
export function signUpAnonymously(
  services: Services,
  project: ProjectRow,
  branchId: string,
): Promise<{ accessToken: string; refreshToken: string; userId: string }> {
  return services.db.transaction(async (tx) => {
    const user = await createUser(tx, project, branchId, { isAnonymous: true });
    return signIn(services, tx, project, user);
  });
}
