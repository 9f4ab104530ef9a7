import { and, eq } from "drizzle-orm";
import type { DbOrTx } from "../../db/connect.ts";
import { teamMembers, teams } from "../../db/schema/index.ts";

export async function createTeamWithCreator(
  tx: DbOrTx,
  input: { projectId: string; branchId: string; displayName: string; creatorUserId: string; creatorDisplayName: string | null },
) {
  const [team] = await tx
    .insert(teams)
    .values({ projectId: input.projectId, branchId: input.branchId, displayName: input.displayName })
    .returning();
  await tx.insert(teamMembers).values({
    projectId: input.projectId,
    branchId: input.branchId,
    teamId: team!.id,
    userId: input.creatorUserId,
    displayName: input.creatorDisplayName,
  });
  return team!;
}

export async function isTeamMember(db: DbOrTx, projectId: string, teamId: string, userId: string): Promise<boolean> {
  const rows = await db
    .select({ userId: teamMembers.userId })
    .from(teamMembers)
    .where(and(eq(teamMembers.projectId, projectId), eq(teamMembers.teamId, teamId), eq(teamMembers.userId, userId)))
    .limit(1);
  return rows.length > 0;
}

/** The name of the personal team made at sign-up. */
export function personalTeamName(displayName: string | null, primaryEmail: string | null): string {
  if (displayName) return `${displayName}'s Team`;
  if (primaryEmail) return `${primaryEmail}'s Team`;
  return "Personal Team";
}
