import { cliAuthEndpoints } from "@latchkey/shared";
import { startCliAuth } from "../../domain/start.ts";
import { defineRoute } from "../../../../http/route.ts";

export default [
  defineRoute(cliAuthEndpoints.createCliAuth, async ({ auth, body, services }) => {
    const started = await startCliAuth(
      services,
      { projectId: auth.project.id, branchId: auth.branchId },
      { expiresInMillis: body.expires_in_millis, anonRefreshToken: body.anon_refresh_token },
    );
    return {
      body: { polling_code: started.pollingCode, login_code: started.loginCode, expires_at: started.expiresAt.toISOString() },
    };
  }),
];
