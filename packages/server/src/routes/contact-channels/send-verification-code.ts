import { KnownErrors, StatusError, SUCCESS, contactChannelsEndpoints } from "@latchkey/shared";
import { listChannels } from "../../domain/contact-channels/channels.ts";
import { sendChannelVerification } from "../../domain/contact-channels/verification.ts";
import { assertTrustedUrl } from "../../domain/projects/trusted-urls.ts";
import { defineRoute } from "../../http/route.ts";
import { tenancyOf } from "../../http/auth.ts";

export default [
  defineRoute(contactChannelsEndpoints.sendPrimaryVerificationCode, async ({ auth, body, services, ip }) => {
    const userId = auth.user!.id;
    const tenancy = tenancyOf(auth);
    assertTrustedUrl(auth.project.config, body.callback_url);
    // Read afresh rather than from the (cached) signed-in user.
    const channels = await listChannels(services.db, tenancy, userId);
    const primary = channels.find((c) => c.isPrimary);
    if (!primary) throw new StatusError(400, "User does not have a primary email");
    const email = body.email.toLowerCase();
    if (!channels.some((c) => c.value.toLowerCase() === email)) throw new KnownErrors.EmailNotAssociatedWithUser();
    if (primary.value.toLowerCase() !== email) throw new KnownErrors.EmailIsNotPrimaryEmail(body.email, primary.value);
    if (primary.isVerified) throw new KnownErrors.EmailAlreadyVerified();
    await sendChannelVerification(services, auth.project, auth.branchId, primary, body.callback_url, ip);
    return { body: SUCCESS };
  }),
];
