import { cliAuthEndpoints, SUCCESS } from "@latchkey/shared";
import { checkCliAuth, claimCliAnonSession } from "../../../domain/anon-session.ts";
import { completeCliAuth } from "../../../domain/complete.ts";
import { defineRoute } from "../../../../../http/route.ts";

export default [
  defineRoute(cliAuthEndpoints.completeCliAuth, async ({ auth, body, services }) => {
    const ctx = { services, project: auth.project, branchId: auth.branchId };
    switch (body.mode) {
      case "check":
        return { body: { cli_session_state: await checkCliAuth(ctx, body.login_code) } };
      case "claim-anon-session": {
        const claimed = await claimCliAnonSession(ctx, body.login_code);
        return { body: { access_token: claimed.accessToken, refresh_token: claimed.refreshToken } };
      }
      case "complete":
        await completeCliAuth(ctx, body.login_code, body.refresh_token);
        return { body: SUCCESS };
    }
  }),
];
