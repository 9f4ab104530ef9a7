/** Checks shared by the owner routes (routes/internal/projects/), which live on the internal project only. */
import { INTERNAL_PROJECT_ID, KnownErrors, StatusError } from "@latchkey/shared";
import { tenancyOf, type RequestAuth } from "./auth.ts";
import { ProductionModeRefused } from "../domain/projects/manage.ts";
import { memberGrants, permissionGraph } from "../domain/permissions/load.ts";
import type { UserRecord } from "../domain/users/record.ts";
import type { Services } from "../services.ts";

export function requireInternalOwner(auth: RequestAuth) {
  if (auth.project.id !== INTERNAL_PROJECT_ID) throw new KnownErrors.ExpectedInternalProject();
  if (!auth.user) throw new KnownErrors.UserAuthenticationRequired();
  return auth.user;
}

/** The owner must hold `team_admin` (directly or through a permission containing it) in a team of the internal project. */
export async function requireOwnerTeamAdmin(services: Services, auth: RequestAuth, owner: UserRecord, teamId: string): Promise<void> {
  const scope = tenancyOf(auth);
  const granted = await memberGrants(services, scope, teamId, owner.id);
  if (granted === null) throw new KnownErrors.TeamMembershipNotFound(teamId, owner.id);
  if (!(await permissionGraph(services, scope)).holds(granted, "team_admin")) {
    throw new KnownErrors.TeamPermissionRequired(teamId, owner.id, "team_admin");
  }
}

/** Runs a project write, answering production-mode problems as 400 text. */
export async function withProductionModeCheck<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (error instanceof ProductionModeRefused) throw new StatusError(400, error.message);
    throw error;
  }
}
