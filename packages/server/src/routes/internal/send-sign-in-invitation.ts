import { internalEmailsEndpoints } from "@latchkey/shared";
import { sendSignInInvitation } from "../../domain/emails/sign-in-invitation.ts";
import { assertTrustedUrl } from "../../domain/projects/trusted-urls.ts";
import { defineRoute } from "../../http/route.ts";

export default [
  defineRoute(internalEmailsEndpoints.sendSignInInvitation, async ({ auth, body, services, ip }) => {
    assertTrustedUrl(auth.project.config, body.callback_url);
    // Counted like a mailed code: one inbox cannot be flooded with invitations either.
    services.emailRateLimit.takeCodeEmail(auth.project.id, body.email, ip);
    await sendSignInInvitation(services, auth.project, { to: body.email, link: body.callback_url });
    return { body: { success: true as const } };
  }),
];
