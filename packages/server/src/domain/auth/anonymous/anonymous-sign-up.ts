/**
 * Anonymous users let an app keep state for a visitor before sign-up; their
 * tokens have their own audience and are refused unless a request opts in.
 */
import type { Db } from "../../../db/connect.ts";
import type { EventTx } from "../../../events/transaction.ts";
import type { Services } from "../../../services.ts";
import { signIn } from "../../sessions/issue.ts";
import { createUser } from "../../users/create.ts";
import type { UserRecord } from "../../users/record.ts";
import type { ProjectRow } from "../../projects/project-row.ts";

/** A new anonymous user, signed in, in one transaction. `client`: its address and (when a trusted proxy said) country. */
export function signUpAnonymously(
  services: Services,
  project: ProjectRow,
  branchId: string,
  client: { countryCode: string | null; ip: string | null } = { countryCode: null, ip: null },
): Promise<{ accessToken: string; refreshToken: string; userId: string }> {
  return services.events.transaction(services.db, async (tx) => {
    const user = await createUser(tx, project, branchId, {
      signingUp: true,
      isAnonymous: true,
      countryCode: client.countryCode,
      now: services.clock.date(),
    });
    return signInAnonymousUser(services, tx, project, user, client.ip);
  });
}

/**
 * A new session of an anonymous user. Not a sign-in method: an anonymous
 * user has no credential and no second factor (complete-sign-in.ts is for
 * users who proved who they are), so this refuses anyone else.
 */
export function signInAnonymousUser(
  services: Services,
  db: Db | EventTx,
  project: ProjectRow,
  user: UserRecord,
  ip: string | null = null,
): Promise<{ accessToken: string; refreshToken: string; sessionId: string; userId: string }> {
  if (!user.isAnonymous) throw new Error(`signInAnonymousUser: user ${user.id} is not anonymous.`);
  return signIn(services, db, project, user, { ip });
}
