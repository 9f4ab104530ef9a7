import { KnownErrors, emailSchema, urlSchema } from "@latchkey/shared";
import { z } from "zod";
import { listChannels } from "../../domain/contact-channels/channels.ts";
import { mailChannelVerification } from "../../domain/contact-channels/verification.ts";
import { assertTrustedUrl } from "../../domain/projects/trusted-urls.ts";
import { StatusError } from "../../http/errors.ts";
import { defineRoute } from "../../http/route.ts";

export default [
  defineRoute({
    method: "POST",
    path: "/contact-channels/send-verification-code",
    summary: "Mail a verification link to the signed-in user's primary e-mail",
    tags: ["Contact channels"],
    access: ["client", "server", "admin"],
    user: "required",
    body: z.object({ email: emailSchema, callback_url: urlSchema }).strict(),
    handler: async ({ auth, body, services, ip }) => {
      const userId = auth.user!.id;
      assertTrustedUrl(auth.project.config, body.callback_url);
      await services.db.transaction(async (tx) => {
        // Read afresh rather than from the (cached) signed-in user.
        const channels = await listChannels(tx, { projectId: auth.project.id, branchId: auth.branchId }, userId);
        const primary = channels.find((c) => c.isPrimary);
        if (!primary) throw new StatusError(400, "User does not have a primary email");
        const email = body.email.toLowerCase();
        if (!channels.some((c) => c.value.toLowerCase() === email)) throw new KnownErrors.EmailNotAssociatedWithUser();
        if (primary.value.toLowerCase() !== email) throw new KnownErrors.EmailIsNotPrimaryEmail(body.email, primary.value);
        if (primary.isVerified) throw new KnownErrors.EmailAlreadyVerified();
        services.emailRateLimit.takeCodeEmail(auth.project.id, primary.value, ip);
        await mailChannelVerification(tx, auth.project, auth.branchId, primary, body.callback_url);
      });
      services.emails.kick();
      return { body: { success: true } };
    },
  }),
];
