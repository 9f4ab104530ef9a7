import { KnownErrors, SUCCESS, contactChannelsEndpoints } from "@latchkey/shared";
import { requireUserChannel } from "../../../../domain/contact-channels/channels.ts";
import { sendChannelVerification } from "../../../../domain/contact-channels/verification.ts";
import { assertTrustedUrl } from "../../../../domain/projects/trusted-urls.ts";
import { defineRoute } from "../../../../http/route.ts";
import { resolveUserId } from "../../../../http/user-target.ts";
import { tenancyOf } from "../../../../http/auth.ts";

export default [
  defineRoute(contactChannelsEndpoints.sendChannelVerificationCode, async ({ auth, params, body, services, ip }) => {
    // A client without a session is asking for its own user's channel, whatever id it names.
    if (auth.type === "client" && !auth.user) throw new KnownErrors.CannotGetOwnUserWithoutUser();
    const userId = resolveUserId(auth, params.user_id);
    const tenancy = tenancyOf(auth);
    assertTrustedUrl(auth.project.config, body.callback_url);
    const channel = await requireUserChannel(services.db, tenancy, userId, params.contact_channel_id);
    if (channel.isVerified) throw new KnownErrors.EmailAlreadyVerified();
    await sendChannelVerification(services, auth.project, auth.branchId, channel, body.callback_url, ip);
    return { body: SUCCESS };
  }),
];
