/**
 * An anonymous user who signs up keeps their id and everything attached to
 * it: the row gains an e-mail and stops being anonymous, and a personal team
 * still carrying the placeholder name takes the new name.
 */
import { and, eq } from "drizzle-orm";
import type { CacheBus } from "../../../cache/bus.ts";
import type { DbOrTx } from "../../../db/connect.ts";
import { teams } from "../../../db/schema/index.ts";
import type { ProjectRow } from "../../projects/projects.ts";
import { personalTeamName } from "../../teams/teams.ts";
import type { UserRecord } from "../../users/record.ts";
import { updateUser } from "../../users/update.ts";

export async function upgradeAnonymousUser(
  tx: DbOrTx,
  bus: CacheBus,
  project: ProjectRow,
  user: UserRecord,
  credentials: { primaryEmail: string; passwordHash: string | null; signUpBotRiskScore?: number },
): Promise<UserRecord> {
  const upgraded = await updateUser(tx, bus, project, user.branchId, user, {
    isAnonymous: false,
    primaryEmail: credentials.primaryEmail,
    primaryEmailAuthEnabled: true,
    ...(credentials.passwordHash ? { passwordHash: credentials.passwordHash } : {}),
    // Signing up is when the account gets its e-mail; the anonymous start answered no challenge.
    ...(credentials.signUpBotRiskScore !== undefined ? { signUpBotRiskScore: credentials.signUpBotRiskScore } : {}),
  });
  if (upgraded.selectedTeamId) {
    await tx
      .update(teams)
      .set({ displayName: personalTeamName(upgraded.displayName, upgraded.primaryEmail) })
      .where(
        and(eq(teams.projectId, project.id), eq(teams.id, upgraded.selectedTeamId), eq(teams.displayName, personalTeamName(null, null))),
      );
    await bus.publish(tx, { t: "team", id: upgraded.selectedTeamId });
  }
  return upgraded;
}
