import { z } from "zod";
import { codeBody } from "../../../domain/codes/request-bodies.ts";
import { signInWithCode } from "../../../domain/users/otp-sign-in.ts";
import { StatusError } from "../../../http/errors.ts";
import { defineRoute } from "../../../http/route.ts";
import { OTP_DISABLED_MESSAGE } from "./send-sign-in-code.ts";

export default [
  defineRoute({
    method: "POST",
    path: "/auth/otp/sign-in",
    summary: "Sign in (or up) with a mailed code",
    tags: ["OTP"],
    access: ["client", "server", "admin"],
    body: codeBody,
    response: z.object({
      access_token: z.string(),
      refresh_token: z.string(),
      is_new_user: z.boolean(),
      user_id: z.string(),
    }),
    handler: async ({ auth, body, services }) => {
      const { config } = auth.project;
      if (!config.magic_link_enabled) throw new StatusError(403, OTP_DISABLED_MESSAGE);
      const result = await signInWithCode(services, auth.project, auth.branchId, body.code, {
        signUpAllowed: config.sign_up_enabled || auth.type !== "client",
        anonymousUser: auth.user?.isAnonymous ? auth.user : null,
      });
      return {
        body: {
          access_token: result.accessToken,
          refresh_token: result.refreshToken,
          is_new_user: result.isNewUser,
          user_id: result.userId,
        },
      };
    },
  }),
];
