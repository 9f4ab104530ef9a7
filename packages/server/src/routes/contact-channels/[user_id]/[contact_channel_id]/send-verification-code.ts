import { KnownErrors } from "@latchkey/shared";
import { requireChannel, requireUser } from "../../../../domain/contact-channels/channels.ts";
import { callbackBody, channelParams } from "../../../../domain/contact-channels/schemas.ts";
import { prepareChannelVerification, saveChannelVerification } from "../../../../domain/contact-channels/verification.ts";
import { assertTrustedUrl } from "../../../../domain/projects/trusted-urls.ts";
import { defineRoute } from "../../../../http/route.ts";
import { resolveUserId } from "../../../../http/user-target.ts";
import { tenancyOf } from "../../../../http/auth.ts";

export default [
  defineRoute({
    method: "POST",
    path: "/contact-channels/:user_id/:contact_channel_id/send-verification-code",
    summary: "Mail a verification link to a contact channel",
    tags: ["Contact channels"],
    access: ["client", "server", "admin"],
    params: channelParams,
    body: callbackBody,
    handler: async ({ auth, params, body, services, ip }) => {
      const userId = resolveUserId(auth, params.user_id);
      const tenancy = tenancyOf(auth);
      assertTrustedUrl(auth.project.config, body.callback_url);
      await requireUser(services.db, tenancy, userId);
      const channel = await requireChannel(services.db, tenancy, userId, params.contact_channel_id);
      if (channel.isVerified) throw new KnownErrors.EmailAlreadyVerified();
      services.emailRateLimit.takeCodeEmail(auth.project.id, channel.value, ip);
      const prepared = await prepareChannelVerification(services.db, services.logger, auth.project, auth.branchId, channel.value, body.callback_url);
      await services.db.transaction((tx) => saveChannelVerification(tx, prepared, channel));
      services.emails.kick();
      return { body: { success: true } };
    },
  }),
];
