import { KnownErrors, emailSchema, urlSchema } from "@latchkey/shared";
import { and, eq } from "drizzle-orm";
import { z } from "zod";
import { contactChannels } from "../../../db/schema/index.ts";
import { prepareChannelVerification, saveChannelVerification } from "../../../domain/contact-channels/verification.ts";
import { assertTrustedUrl } from "../../../domain/projects/trusted-urls.ts";
import { signIn } from "../../../domain/sessions/issue.ts";
import { createUser } from "../../../domain/users/create.ts";
import { upgradeAnonymousUser } from "../../../domain/users/upgrade-anonymous.ts";
import { checkPasswordRules, hashPassword } from "../../../domain/users/passwords.ts";
import { defineRoute } from "../../../http/route.ts";

export default [
  defineRoute({
    method: "POST",
    path: "/auth/password/sign-up",
    summary: "Sign up with e-mail and password",
    tags: ["Password"],
    access: ["client", "server", "admin"],
    body: z
      .object({
        email: emailSchema,
        password: z.string(),
        verification_callback_url: urlSchema.optional(),
      })
      .strict(),
    handler: async ({ auth, body, services }) => {
      const { config } = auth.project;
      if (!config.credential_enabled) throw new KnownErrors.PasswordAuthenticationNotEnabled();
      if (!config.sign_up_enabled && auth.type === "client") throw new KnownErrors.SignUpNotEnabled();
      checkPasswordRules(body.password);
      const callbackUrl = body.verification_callback_url;
      if (callbackUrl !== undefined) assertTrustedUrl(config, callbackUrl);
      // Hash, and render the verification mail, outside the transaction: they are the slow parts and need no lock.
      const [passwordHash, verification] = await Promise.all([
        hashPassword(body.password),
        callbackUrl === undefined
          ? null
          : prepareChannelVerification(services.db, services.logger, auth.project, auth.branchId, body.email, callbackUrl),
      ]);
      const result = await services.db.transaction(async (tx) => {
        // Signed in anonymously? Then this sign-up upgrades that user in place.
        const user = auth.user?.isAnonymous
          ? await upgradeAnonymousUser(tx, services.bus, auth.project, auth.user, { primaryEmail: body.email, passwordHash })
          : await createUser(tx, auth.project, auth.branchId, {
              primaryEmail: body.email,
              primaryEmailAuthEnabled: true,
              passwordHash,
            });
        if (verification) {
          const [channel] = await tx
            .select({ id: contactChannels.id, userId: contactChannels.userId, value: contactChannels.value })
            .from(contactChannels)
            .where(and(eq(contactChannels.userId, user.id), eq(contactChannels.isPrimary, true)));
          await saveChannelVerification(tx, verification, channel!);
        }
        return signIn(services, tx, auth.project, user);
      });
      if (verification) services.emails.kick();
      return {
        body: { access_token: result.accessToken, refresh_token: result.refreshToken, user_id: result.userId },
      };
    },
  }),
];
