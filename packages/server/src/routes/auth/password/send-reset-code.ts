import { KnownErrors, RESET_CODE_MAYBE_SENT, authEndpoints } from "@latchkey/shared";
import { assertTrustedUrl } from "../../../domain/projects/trusted-urls.ts";
import { sendResetCode } from "../../../domain/auth/password/password-reset.ts";
import { defineRoute } from "../../../http/route.ts";

export default [
  defineRoute(authEndpoints.passwordSendResetCode, async ({ auth, body, services, ip }) => {
    const { config } = auth.project;
    if (!config.credential_enabled) throw new KnownErrors.PasswordAuthenticationNotEnabled();
    assertTrustedUrl(config, body.callback_url);
    // Counted whether or not the address has an account, so the limit does
    // not tell who has one.
    services.emailRateLimit.takeCodeEmail(auth.project.id, body.email, ip);
    await sendResetCode(services, auth.project, auth.branchId, body.email, body.callback_url);
    // The same answer either way (no account enumeration).
    return { body: RESET_CODE_MAYBE_SENT };
  }),
];
