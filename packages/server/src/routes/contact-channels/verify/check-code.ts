import { assertChannelStillHolds } from "../../../domain/contact-channels/channels.ts";
import { codeBody } from "../../../domain/codes/request-bodies.ts";
import type { ChannelVerificationData } from "../../../domain/contact-channels/verification.ts";
import { checkCode } from "../../../domain/codes/verification-codes.ts";
import { defineRoute } from "../../../http/route.ts";
import { tenancyOf } from "../../../http/auth.ts";

export default [
  defineRoute({
    method: "POST",
    path: "/contact-channels/verify/check-code",
    summary: "Check a contact-channel verification code without using it",
    tags: ["Contact channels"],
    access: ["client", "server", "admin"],
    body: codeBody,
    handler: async ({ auth, body, services }) => {
      const tenancy = tenancyOf(auth);
      const data = await checkCode<ChannelVerificationData>(
        services.db,
        { ...tenancy, purpose: "contact_channel_verification" },
        body.code,
      );
      // A code verify would refuse is not reported as valid.
      await assertChannelStillHolds(services.db, tenancy, data);
      return { body: { is_code_valid: true } };
    },
  }),
];
