/**
 * Every route module. A module's path mirrors its URL under /api/v1:
 * routes/auth/password/sign-in.ts serves POST /api/v1/auth/password/sign-in.
 */
import type { RouteDefinition } from "../http/route.ts";
import root from "./root.ts";

export const allRoutes: RouteDefinition[] = [...root];
