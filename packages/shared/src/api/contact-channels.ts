/**
 * Contact channels: a user's e-mail addresses, the bodies that add and change
 * one, and the /contact-channels endpoints, with mailing and checking the
 * code that verifies an address. Clients may not set is_verified: only
 * proving access to the mailbox (or a server) does.
 */
import { z } from "zod";
import { KnownErrors } from "../known-errors/index.ts";
import { emailSchema, userIdOrMeSchema, uuidSchema } from "../schema-fields.ts";
import { callbackBody, codeBody, mailCodeBody } from "./codes.ts";
import { defineEndpoint } from "./endpoint.ts";
import { listJson, successJson } from "./json.ts";

/** A user's contact channel; only e-mail today. */
export const contactChannelJson = z.strictObject({
  id: z.string(),
  is_primary: z.boolean(),
  is_verified: z.boolean(),
  type: z.literal("email"),
  used_for_auth: z.boolean(),
  user_id: z.string(),
  value: z.string(),
});
export type ContactChannelJson = z.infer<typeof contactChannelJson>;

export const serverContactChannelCreateBody = z.strictObject({
  user_id: userIdOrMeSchema,
  type: z.enum(["email"]),
  value: emailSchema,
  used_for_auth: z.boolean(),
  is_primary: z.boolean().optional(),
  is_verified: z.boolean().optional(),
});
export type ServerContactChannelCreateBody = z.input<typeof serverContactChannelCreateBody>;
export type ServerContactChannelCreate = z.output<typeof serverContactChannelCreateBody>;

export const clientContactChannelCreateBody = serverContactChannelCreateBody.pick({
  user_id: true,
  type: true,
  value: true,
  used_for_auth: true,
  is_primary: true,
});
export type ClientContactChannelCreateBody = z.input<typeof clientContactChannelCreateBody>;

export const serverContactChannelPatchBody = z.strictObject({
  value: emailSchema.optional(),
  used_for_auth: z.boolean().optional(),
  is_primary: z.boolean().optional(),
  is_verified: z.boolean().optional(),
});
export type ServerContactChannelPatchBody = z.input<typeof serverContactChannelPatchBody>;
export type ServerContactChannelPatch = z.output<typeof serverContactChannelPatchBody>;

export const clientContactChannelPatchBody = serverContactChannelPatchBody.pick({
  value: true,
  used_for_auth: true,
  is_primary: true,
});
export type ClientContactChannelPatchBody = z.input<typeof clientContactChannelPatchBody>;

const channelParams = z.strictObject({ user_id: userIdOrMeSchema, contact_channel_id: uuidSchema });
const ALL = ["client", "server", "admin"] as const;
const TAGS = ["Contact channels"];
/** Naming a user (`me` or an id) that is not there. */
const USER_ERRORS = [KnownErrors.CannotGetOwnUserWithoutUser, KnownErrors.UserIdDoesNotExist] as const;
const CODE_ERRORS = [
  KnownErrors.VerificationCodeNotFound,
  KnownErrors.VerificationCodeExpired,
  KnownErrors.VerificationCodeAlreadyUsed,
  KnownErrors.VerificationCodeMaxAttemptsReached,
] as const;

export const contactChannelsEndpoints = {
  createContactChannel: defineEndpoint({
    method: "POST",
    path: "/contact-channels",
    summary: "Add an e-mail address to a user",
    tags: TAGS,
    access: ALL,
    body: serverContactChannelCreateBody,
    clientBody: clientContactChannelCreateBody,
    status: 201,
    response: contactChannelJson,
    errors: [...USER_ERRORS, KnownErrors.ContactChannelAlreadyUsedForAuthBySomeoneElse],
  }),
  listContactChannels: defineEndpoint({
    method: "GET",
    path: "/contact-channels",
    summary: "List a user's contact channels, primary first",
    tags: TAGS,
    access: ALL,
    query: z.strictObject({ user_id: userIdOrMeSchema }),
    response: listJson(contactChannelJson),
    errors: USER_ERRORS,
  }),
  getContactChannel: defineEndpoint({
    method: "GET",
    path: "/contact-channels/:user_id/:contact_channel_id",
    summary: "Get one of a user's contact channels",
    tags: TAGS,
    access: ALL,
    params: channelParams,
    response: contactChannelJson,
    errors: USER_ERRORS,
  }),
  updateContactChannel: defineEndpoint({
    method: "PATCH",
    path: "/contact-channels/:user_id/:contact_channel_id",
    summary: "Update a contact channel (a new address is unverified)",
    tags: TAGS,
    access: ALL,
    params: channelParams,
    body: serverContactChannelPatchBody,
    clientBody: clientContactChannelPatchBody,
    response: contactChannelJson,
    errors: [...USER_ERRORS, KnownErrors.ContactChannelAlreadyUsedForAuthBySomeoneElse],
  }),
  deleteContactChannel: defineEndpoint({
    method: "DELETE",
    path: "/contact-channels/:user_id/:contact_channel_id",
    summary: "Remove a contact channel",
    tags: TAGS,
    access: ALL,
    params: channelParams,
    response: successJson,
    errors: USER_ERRORS,
  }),
  sendChannelVerificationCode: defineEndpoint({
    method: "POST",
    path: "/contact-channels/:user_id/:contact_channel_id/send-verification-code",
    summary: "Mail a verification link to a contact channel",
    tags: TAGS,
    access: ALL,
    params: channelParams,
    body: callbackBody,
    response: successJson,
    errors: [...USER_ERRORS, KnownErrors.RedirectUrlNotWhitelisted, KnownErrors.EmailAlreadyVerified],
  }),
  sendPrimaryVerificationCode: defineEndpoint({
    method: "POST",
    path: "/contact-channels/send-verification-code",
    summary: "Mail a verification link to the signed-in user's primary e-mail",
    tags: TAGS,
    access: ALL,
    user: "required",
    body: mailCodeBody,
    response: successJson,
    errors: [
      KnownErrors.RedirectUrlNotWhitelisted,
      KnownErrors.EmailNotAssociatedWithUser,
      KnownErrors.EmailIsNotPrimaryEmail,
      KnownErrors.EmailAlreadyVerified,
    ],
  }),
  verifyContactChannel: defineEndpoint({
    method: "POST",
    path: "/contact-channels/verify",
    summary: "Verify a contact channel with the code from its verification link",
    tags: TAGS,
    // No signed-in user needed: the link may be opened in another browser.
    access: ALL,
    body: codeBody,
    response: successJson,
    errors: CODE_ERRORS,
  }),
  checkContactChannelVerificationCode: defineEndpoint({
    method: "POST",
    path: "/contact-channels/verify/check-code",
    summary: "Check a contact-channel verification code without using it",
    tags: TAGS,
    access: ALL,
    body: codeBody,
    response: z.strictObject({ is_code_valid: z.literal(true) }),
    errors: CODE_ERRORS,
  }),
};
