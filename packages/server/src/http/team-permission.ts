/**
 * The one place a client's team permissions are enforced. An endpoint
 * declares what it needs (`teamPermission` in its contract); the pipeline
 * calls this after validating the request and before the handler, so no
 * handler checks a client's permissions by hand.
 */
import { KnownErrors, type TeamPermissionRequirement } from "@latchkey/shared";
import { memberGrants, permissionGraph } from "../domain/permissions/load.ts";
import { settle, type Steps } from "../lib/maybe-async.ts";
import type { Services } from "../services.ts";
import type { RequestAuth } from "./auth.ts";

type Parts = Record<"params" | "query" | "body", unknown>;

function field(parts: Parts, part: keyof Parts, name: string): string | undefined {
  const value = (parts[part] as Record<string, unknown> | undefined)?.[name];
  return typeof value === "string" ? value : undefined;
}

/** Steps (lib/maybe-async.ts): a cached member's check does not wait. */
export function* requireTeamPermission(services: Services, auth: RequestAuth, need: TeamPermissionRequirement, parts: Parts): Steps<void> {
  if (auth.type !== "client") return;
  const teamId = field(parts, need.teamIdIn, "team_id");
  if (teamId === undefined) return;
  const user = auth.user;
  if (!user) {
    // Naming `me` without a user has its own error, whichever endpoint it is.
    const namesMe = (["params", "query", "body"] as const).some((part) => field(parts, part, "user_id") === "me");
    throw namesMe ? new KnownErrors.CannotGetOwnUserWithoutUser() : new KnownErrors.UserAuthenticationRequired();
  }
  const scope = { projectId: auth.project.id, branchId: auth.branchId };
  const granted = yield* settle(memberGrants(services, scope, teamId, user.id));
  // A team of another project, or none at all, looks the same as one the user is not in.
  if (granted === null) throw need.refusal ? new need.refusal() : new KnownErrors.TeamMembershipNotFound(teamId, user.id);
  if (need.permissions.length === 0) return;
  if (need.exceptOwnUserIn) {
    const named = field(parts, need.exceptOwnUserIn, "user_id");
    if (named === "me" || named === user.id) return;
  }
  const graph = yield* settle(permissionGraph(services, scope));
  for (const permissionId of need.permissions) {
    if (graph.holds(granted, permissionId)) continue;
    throw need.refusal ? new need.refusal() : new KnownErrors.TeamPermissionRequired(teamId, user.id, permissionId);
  }
}
