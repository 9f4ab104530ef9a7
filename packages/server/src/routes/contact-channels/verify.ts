import { markChannelVerified } from "../../domain/contact-channels/channels.ts";
import { codeBody } from "../../domain/codes/request-bodies.ts";
import type { ChannelVerificationData } from "../../domain/contact-channels/verification.ts";
import { useCode } from "../../domain/codes/verification-codes.ts";
import { defineRoute } from "../../http/route.ts";
import { tenancyOf } from "../../http/auth.ts";

export default [
  defineRoute({
    method: "POST",
    path: "/contact-channels/verify",
    summary: "Verify a contact channel with the code from its verification link",
    tags: ["Contact channels"],
    // No signed-in user needed: the link may be opened in another browser.
    access: ["client", "server", "admin"],
    body: codeBody,
    handler: async ({ auth, body, services }) => {
      const tenancy = tenancyOf(auth);
      await useCode<ChannelVerificationData, void>(
        services.db,
        { ...tenancy, purpose: "contact_channel_verification" },
        body.code,
        (tx, data) => markChannelVerified(tx, services.bus, tenancy, data),
      );
      return { body: { success: true } };
    },
  }),
];
