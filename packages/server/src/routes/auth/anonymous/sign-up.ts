import { z } from "zod";
import { signIn } from "../../../domain/sessions/issue.ts";
import { createUser } from "../../../domain/users/create.ts";
import { defineRoute } from "../../../http/route.ts";

/**
 * Anonymous users let an app keep state for a visitor before sign-up; their
 * tokens have their own audience and are refused unless a request opts in.
 */
export default [
  defineRoute({
    method: "POST",
    path: "/auth/anonymous/sign-up",
    summary: "Create an anonymous user and sign them in",
    tags: ["Anonymous"],
    access: ["client", "server", "admin"],
    body: z.object({}).strict().optional(),
    handler: async ({ auth, services }) => {
      const result = await services.db.transaction(async (tx) => {
        const user = await createUser(tx, auth.project, auth.branchId, { isAnonymous: true });
        return signIn(services, tx, auth.project, user);
      });
      return {
        body: { access_token: result.accessToken, refresh_token: result.refreshToken, user_id: result.userId },
      };
    },
  }),
];
