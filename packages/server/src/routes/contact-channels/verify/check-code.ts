import { contactChannelsEndpoints } from "@latchkey/shared";
import { assertChannelStillHolds } from "../../../domain/contact-channels/channels.ts";
import type { ChannelVerificationData } from "../../../domain/contact-channels/verification.ts";
import { checkCode } from "../../../domain/codes/verification-codes.ts";
import { defineRoute } from "../../../http/route.ts";
import { tenancyOf } from "../../../http/auth.ts";

export default [
  defineRoute(contactChannelsEndpoints.checkContactChannelVerificationCode, async ({ auth, body, services }) => {
    const tenancy = tenancyOf(auth);
    const data = await checkCode<ChannelVerificationData>(services, { ...tenancy, purpose: "contact_channel_verification" }, body.code);
    // A code verify would refuse is not reported as valid.
    await assertChannelStillHolds(services.db, tenancy, data);
    return { body: { is_code_valid: true as const } };
  }),
];
