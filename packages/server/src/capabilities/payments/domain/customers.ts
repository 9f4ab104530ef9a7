/**
 * Who a payments request is about: a customer (user, team, or the app's own
 * custom id) and whether the caller may see them. Every payments route
 * starts here, in the order WIRE-next.md §5.2 gives.
 */
import { KnownErrors, StatusError, UUID_PATTERN, type CustomerParams, type CustomerType } from "@latchkey/shared";
import type { Caller } from "../../../domain/caller.ts";
import { memberGrants, permissionGraph } from "../../../domain/permissions/load.ts";
import { findTeamCached } from "../../../domain/teams/cached.ts";
import { findUserCached } from "../../../domain/users/cached.ts";
import type { Tenancy } from "../../../db/tenancy.ts";
import type { Services } from "../../../services.ts";

export interface Customer {
  type: CustomerType;
  /** A user's or team's id in lower case (as stored); a custom id as the app wrote it. */
  id: string;
}

export function customerOf(params: CustomerParams): Customer {
  const id = params.customer_type === "custom" ? params.customer_id : params.customer_id.toLowerCase();
  return { type: params.customer_type, id };
}

/** A client manages billing for its own user, and for a team where it holds `team_admin` (directly or contained). */
const CLIENT_TEAM_PERMISSION = "team_admin";

/**
 * With client access: the signed-in user themself, or a team where they hold
 * `team_admin`; never a custom customer. The refusal's words are the route's
 * own (`forbiddenMessage`), as plain 403s.
 */
export async function ensureClientCanAccessCustomer(
  services: Services,
  caller: Caller,
  customer: Customer,
  forbiddenMessage: string,
): Promise<void> {
  if (caller.accessType !== "client") return;
  const userId = caller.userId;
  if (!userId) throw new KnownErrors.UserAuthenticationRequired();
  if (customer.type === "custom") throw new StatusError(403, forbiddenMessage);
  if (customer.type === "user") {
    if (customer.id !== userId) throw new StatusError(403, forbiddenMessage);
    return;
  }
  const granted = await memberGrants(services, caller.scope, customer.id, userId);
  if (granted === null) throw new KnownErrors.TeamMembershipNotFound(customer.id, userId);
  const graph = await permissionGraph(services, caller.scope);
  if (!graph.holds(granted, CLIENT_TEAM_PERMISSION)) {
    throw new KnownErrors.TeamPermissionRequired(customer.id, userId, CLIENT_TEAM_PERMISSION);
  }
}

/** A user or team customer must exist in the project (an id that is not a UUID cannot); a custom one is never checked. */
export async function ensureCustomerExists(services: Services, scope: Tenancy, customer: Customer): Promise<void> {
  if (customer.type === "custom") return;
  if (customer.type === "user") {
    const user = UUID_PATTERN.test(customer.id) ? await findUserCached(services, scope.projectId, scope.branchId, customer.id) : null;
    if (!user) throw new KnownErrors.UserNotFound();
    return;
  }
  const team = UUID_PATTERN.test(customer.id) ? await findTeamCached(services, scope, customer.id) : null;
  if (!team) throw new KnownErrors.TeamNotFound(customer.id);
}
