/**
 * Who is calling: access type, project, branch and user, established in the
 * fixed order below (test/auth-order.test.ts holds it) so the first failing
 * check is the one reported.
 */
import { ACCESS_TYPES, DEFAULT_BRANCH_ID, INTERNAL_PROJECT_ID, KnownErrors, type AccessType } from "@latchkey/shared";
import { checkWorkflowToken } from "../capabilities/workflows/domain/tokens.ts";
import { checkProjectKey } from "../domain/api-keys/key-check.ts";
import { isSessionLive } from "../domain/sessions/liveness.ts";
import type { Caller } from "../domain/caller.ts";
import { isTeamMember } from "../domain/teams/teams.ts";
import type { AccessTokenClaims } from "../domain/tokens/access-token.ts";
import { findUserCached } from "../domain/users/cached.ts";
import { restrictedReason, type UserRecord } from "../domain/users/record.ts";
import { isPromise, settle, type Steps } from "../lib/maybe-async.ts";
import type { Services } from "../services.ts";
import { stackHeader, type HeaderReader } from "./headers.ts";
import type { Tenancy } from "../db/tenancy.ts";
import type { ProjectRow } from "../domain/projects/project-row.ts";

export interface RequestAuth {
  type: AccessType;
  project: ProjectRow;
  branchId: string;
  /** The signed-in user, or null (no token, or the user was deleted). */
  user: UserRecord | null;
  /** The session (refresh token id) the access token belongs to. */
  sessionId: string | null;
}

const CREDENTIAL_HEADERS = ["publishable-client-key", "secret-server-key", "super-secret-admin-key", "admin-access-token"] as const;

/**
 * Returns null for an unauthenticated request (no access type). Steps for
 * lib/maybe-async.ts: with the project, key and user cached, they finish
 * without waiting.
 */
export function* authenticate(services: Services, headers: HeaderReader): Steps<RequestAuth | null> {
  // Headers are read where a step needs them: most requests carry few of them.
  const accessType = stackHeader(headers, "access-type");

  // 1–4: access type and project id.
  if (!accessType) {
    for (const key of CREDENTIAL_HEADERS) if (stackHeader(headers, key)) throw new KnownErrors.ProjectKeyWithoutAccessType();
    return null;
  }
  if (!(ACCESS_TYPES as readonly string[]).includes(accessType)) throw new KnownErrors.InvalidAccessType(accessType);
  const type = accessType as AccessType;
  const projectId = stackHeader(headers, "project-id");
  if (!projectId) throw new KnownErrors.AccessTypeWithoutProjectId(type);

  // 5: the user's access token.
  const accessToken = stackHeader(headers, "access-token");
  let claims: AccessTokenClaims | null = null;
  if (accessToken) {
    claims = services.tokens.verify(accessToken);
    if (claims.project_id !== projectId) {
      throw new KnownErrors.InvalidProjectForAccessToken(projectId, claims.project_id);
    }
    const allowAnonymous = (claims.is_anonymous || claims.is_restricted) && stackHeader(headers, "allow-anonymous-user") === "true";
    if (claims.is_anonymous && !allowAnonymous) throw new KnownErrors.AnonymousAuthenticationNotAllowed();
    // Anonymous users are allowed wherever restricted ones are.
    const allowRestricted = allowAnonymous || stackHeader(headers, "allow-restricted-user") === "true";
    if (claims.is_restricted && claims.restricted_reason && !allowRestricted) {
      throw new KnownErrors.RestrictedUserNotAllowed(claims.restricted_reason);
    }
  }

  // 6: the project.
  const project = yield* settle(services.projects.get(projectId));
  if (!project) throw new KnownErrors.CurrentProjectNotFound(projectId);

  // 7: keys, or a project owner's admin token (which makes keys irrelevant), or for client and server access a
  // workflow run's token, which stands for the keys of its own project (capabilities/workflows).
  const adminToken = stackHeader(headers, "admin-access-token");
  const workflowToken = type === "admin" ? null : stackHeader(headers, "workflow-token");
  if (adminToken) {
    yield* checkAdminToken(services, adminToken, project);
  } else if (workflowToken !== null) {
    yield* settle(checkWorkflowToken(services, project.id, workflowToken));
  } else if (type === "client") {
    const publishableKey = stackHeader(headers, "publishable-client-key");
    if (publishableKey !== null) {
      if (!(yield* settle(checkProjectKey(services, project.id, "publishable_client_key", publishableKey)))) {
        throw new KnownErrors.InvalidPublishableClientKey(project.id);
      }
    } else if (project.config.require_publishable_client_key) {
      throw new KnownErrors.PublishableClientKeyRequiredForProject(project.id);
    }
  } else if (type === "server") {
    const secretKey = stackHeader(headers, "secret-server-key");
    if (!secretKey) throw new KnownErrors.ServerAuthenticationRequired();
    if (!(yield* settle(checkProjectKey(services, project.id, "secret_server_key", secretKey)))) {
      throw new KnownErrors.InvalidSecretServerKey(project.id);
    }
  } else {
    const adminKey = stackHeader(headers, "super-secret-admin-key");
    if (!adminKey) throw new KnownErrors.AdminAuthenticationRequired();
    if (!(yield* settle(checkProjectKey(services, project.id, "super_secret_admin_key", adminKey)))) {
      throw new KnownErrors.InvalidSuperSecretAdminKey(project.id);
    }
  }

  // 8: the branch. Every project has exactly one branch today.
  const branchId = stackHeader(headers, "branch-id") ?? DEFAULT_BRANCH_ID;
  if (branchId !== DEFAULT_BRANCH_ID) throw new KnownErrors.BranchDoesNotExist(branchId);

  const user = claims ? yield* settle(findUserCached(services, project.id, branchId, claims.sub)) : null;
  // 8b: the token's session, which may have ended before the token expires. Asked of every request with a
  // token, so without even a generator when cached. A deleted user's token simply finds no user (above).
  if (user) {
    let live = isSessionLive(services, claims!);
    if (isPromise(live)) live = (yield live) as boolean;
    if (!live) throw sessionEnded(claims!);
  }
  return { type, project, branchId, user, sessionId: user ? claims!.refresh_token_id : null };
}

/**
 * The error of a token whose session ended: the one of an expired token, on which clients refresh, and the
 * refresh of an ended session fails, which signs them out.
 */
function sessionEnded(claims: AccessTokenClaims): Error {
  return new KnownErrors.AccessTokenExpired(null, claims.project_id, claims.sub, claims.refresh_token_id);
}

/**
 * An admin token is an internal-project access token of a member of the team
 * that owns the target project.
 */
function* checkAdminToken(services: Services, token: string, project: ProjectRow): Steps<void> {
  let claims: AccessTokenClaims;
  try {
    claims = services.tokens.verify(token);
  } catch (error) {
    if (error instanceof KnownErrors.AccessTokenExpired) {
      const at = error.details.expired_at_millis;
      throw new KnownErrors.AdminAccessTokenExpired(at === null ? null : new Date(at));
    }
    throw new KnownErrors.UnparsableAdminAccessToken();
  }
  // Anonymous or restricted owners (e.g. blocked by an administrator) administer nothing.
  if (claims.project_id !== INTERNAL_PROJECT_ID || claims.is_anonymous || claims.is_restricted || !project.ownerTeamId) {
    throw new KnownErrors.AdminAccessTokenIsNotAdmin();
  }
  const teamId = project.ownerTeamId;
  const userId = claims.sub;
  const member = yield* settle(
    services.caches.load(services.caches.memberships, `${teamId}:${userId}`, async () =>
      (await isTeamMember(services.db, { projectId: INTERNAL_PROJECT_ID, branchId: DEFAULT_BRANCH_ID }, teamId, userId))
        ? { teamId }
        : null,
    ),
  );
  if (!member) throw new KnownErrors.AdminAccessTokenIsNotAdmin();
  // The owner as they are now, not as the token says: restricting or deleting
  // an owner ends their admin access at once, not when the token expires.
  const internalProject = yield* settle(services.projects.get(INTERNAL_PROJECT_ID));
  const owner = yield* settle(findUserCached(services, INTERNAL_PROJECT_ID, DEFAULT_BRANCH_ID, userId));
  if (!owner || !internalProject || restrictedReason(owner, internalProject.config.require_email_verification)) {
    throw new KnownErrors.AdminAccessTokenIsNotAdmin();
  }
  // Signing out of the dashboard ends its admin access too; refreshing is then refused, which signs it out.
  let live = isSessionLive(services, claims);
  if (isPromise(live)) live = (yield live) as boolean;
  if (!live) throw new KnownErrors.AdminAccessTokenExpired(null);
}

/** The project and branch every query of the request is scoped to. */
export function tenancyOf(auth: RequestAuth): Tenancy {
  return { projectId: auth.project.id, branchId: auth.branchId };
}

/** Who is asking, as the plain values domain code takes (domain/caller.ts). */
export function callerOf(auth: RequestAuth): Caller {
  return { scope: tenancyOf(auth), accessType: auth.type, userId: auth.user?.id ?? null };
}
