import type { AccessType } from "@latchkey/shared";
import type { Tenancy } from "../db/tenancy.ts";

/**
 * Who is asking, as plain values for domain code that decides by access
 * (the route builds it with http/auth.ts `callerOf`): the access type, the
 * signed-in user if any, and the project and branch of the request.
 */
export interface Caller {
  scope: Tenancy;
  accessType: AccessType;
  userId: string | null;
}
