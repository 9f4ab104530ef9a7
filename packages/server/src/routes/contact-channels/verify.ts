import { SUCCESS, contactChannelsEndpoints } from "@latchkey/shared";
import { markChannelVerified } from "../../domain/contact-channels/channels.ts";
import type { ChannelVerificationData } from "../../domain/contact-channels/verification.ts";
import { useCode } from "../../domain/codes/verification-codes.ts";
import { defineRoute } from "../../http/route.ts";
import { tenancyOf } from "../../http/auth.ts";

export default [
  defineRoute(contactChannelsEndpoints.verifyContactChannel, async ({ auth, body, services }) => {
    const tenancy = tenancyOf(auth);
    await useCode<ChannelVerificationData, void>(services, { ...tenancy, purpose: "contact_channel_verification" }, body.code, (tx, data) =>
      markChannelVerified(tx, services.bus, tenancy, data),
    );
    return { body: SUCCESS };
  }),
];
