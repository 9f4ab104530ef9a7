/**
 * Reading the signed-in user of a session (`GET /users/me`) with the kinds of
 * user a read accepts: anonymous and restricted users count as nobody unless
 * asked for.
 */
import { KnownErrors } from "@latchkey/shared/known-errors/index";
import type { AccessType, ApiClient } from "../interface/api-client.ts";
import type { ClientUserJson } from "../models/json.ts";
import type { Session } from "../session/session.ts";

export async function readCurrentUserJson(
  api: ApiClient,
  accessType: AccessType,
  session: Session,
  allow: { anonymous: boolean; restricted: boolean },
): Promise<ClientUserJson | null> {
  if (session.isSignedOut) return null;
  const headers: Record<string, string> = {};
  if (allow.anonymous) headers["x-stack-allow-anonymous-user"] = "true";
  if (allow.restricted) headers["x-stack-allow-restricted-user"] = "true";
  let json: ClientUserJson;
  try {
    json = await api.call("GET /users/me", { accessType, session, headers });
  } catch (error) {
    // Signed out, or a kind of user this call does not accept: no user.
    if (
      error instanceof KnownErrors.CannotGetOwnUserWithoutUser ||
      error instanceof KnownErrors.AnonymousAuthenticationNotAllowed ||
      error instanceof KnownErrors.RestrictedUserNotAllowed
    ) {
      return null;
    }
    throw error;
  }
  // The server may answer with a restricted user when the token predates the restriction.
  if ((json.is_anonymous && !allow.anonymous) || (json.is_restricted && !allow.restricted)) return null;
  return json;
}
