/**
 * Invitations to a team by e-mail. Sending mails a one-time code (the
 * project's team-invitation template, a link `<callback_url>?code=…`, valid
 * 7 days); a signed-in user who opens it accepts and joins with the
 * team-member default permissions. A client sends a team's invitations with
 * `$invite_members`, lists them with `$read_members` and `$invite_members`,
 * and revokes them with `$remove_members`; it lists the invitations to its
 * own verified addresses with `user_id=me`, and accepts one of those by its
 * id (a server names any user, who must have the verified address too).
 */
import { z } from "zod";
import { KnownErrors } from "../known-errors/index.ts";
import { emailSchema, urlSchema, userIdOrMeSchema, uuidSchema } from "../schema-fields.ts";
import { codeBody } from "./codes.ts";
import { defineEndpoint } from "./endpoint.ts";
import { listJson, successJson } from "./json.ts";

export const teamInvitationJson = z.strictObject({
  expires_at_millis: z.number(),
  id: z.string(),
  recipient_email: z.string(),
  team_display_name: z.string(),
  team_id: z.string(),
});
export type TeamInvitationJson = z.infer<typeof teamInvitationJson>;

export const teamInvitationSendBody = z.strictObject({ team_id: uuidSchema, email: emailSchema, callback_url: urlSchema });
export type TeamInvitationSendBody = z.input<typeof teamInvitationSendBody>;

export const teamInvitationDetailsJson = z.strictObject({ team_id: z.string(), team_display_name: z.string() });
export type TeamInvitationDetailsJson = z.infer<typeof teamInvitationDetailsJson>;

const ALL = ["client", "server", "admin"] as const;
const TAGS = ["Team invitations"];
const CODE_ERRORS = [
  KnownErrors.VerificationCodeNotFound,
  KnownErrors.VerificationCodeExpired,
  KnownErrors.VerificationCodeAlreadyUsed,
  KnownErrors.VerificationCodeMaxAttemptsReached,
] as const;

export const teamInvitationsEndpoints = {
  sendTeamInvitation: defineEndpoint({
    method: "POST",
    path: "/team-invitations/send-code",
    summary: "Invite an e-mail address to a team",
    tags: TAGS,
    access: ALL,
    teamPermission: { permissions: ["$invite_members"], teamIdIn: "body" },
    body: teamInvitationSendBody,
    response: z.strictObject({ success: z.literal(true), id: z.string() }),
    errors: [KnownErrors.TeamNotFound, KnownErrors.RedirectUrlNotWhitelisted],
  }),
  listTeamInvitations: defineEndpoint({
    method: "GET",
    path: "/team-invitations",
    summary: "List a team's pending invitations (team_id), or those sent to a user's verified addresses (user_id)",
    tags: TAGS,
    access: ALL,
    teamPermission: { permissions: ["$read_members", "$invite_members"], teamIdIn: "query" },
    query: z.strictObject({ team_id: uuidSchema.optional(), user_id: userIdOrMeSchema.optional() }),
    response: listJson(teamInvitationJson),
    errors: [KnownErrors.TeamNotFound, KnownErrors.CannotGetOwnUserWithoutUser, KnownErrors.UserNotFound],
  }),
  revokeTeamInvitation: defineEndpoint({
    method: "DELETE",
    path: "/team-invitations/:invitation_id",
    summary: "Revoke a pending invitation",
    tags: TAGS,
    access: ALL,
    teamPermission: { permissions: ["$remove_members"], teamIdIn: "query" },
    params: z.strictObject({ invitation_id: uuidSchema }),
    query: z.strictObject({ team_id: uuidSchema }),
    response: successJson,
    errors: [KnownErrors.TeamNotFound],
  }),
  acceptTeamInvitation: defineEndpoint({
    method: "POST",
    path: "/team-invitations/accept",
    summary: "Accept an invitation: the signed-in user joins the team",
    tags: TAGS,
    access: ALL,
    user: "required",
    body: codeBody,
    response: z.strictObject({}),
    errors: [...CODE_ERRORS, KnownErrors.TeamInvitationRestrictedUserNotAllowed],
  }),
  acceptTeamInvitationById: defineEndpoint({
    method: "POST",
    path: "/team-invitations/:invitation_id/accept",
    summary: "Accept a pending invitation sent to one of the user's verified addresses: the user joins the team",
    tags: TAGS,
    access: ALL,
    params: z.strictObject({ invitation_id: uuidSchema }),
    query: z.strictObject({ user_id: userIdOrMeSchema }),
    body: z.strictObject({}).optional(),
    response: z.strictObject({}),
    errors: [
      KnownErrors.VerificationCodeNotFound,
      KnownErrors.CannotGetOwnUserWithoutUser,
      KnownErrors.TeamInvitationRestrictedUserNotAllowed,
    ],
  }),
  checkTeamInvitationCode: defineEndpoint({
    method: "POST",
    path: "/team-invitations/accept/check-code",
    summary: "Check that an invitation code can still be accepted",
    tags: TAGS,
    access: ALL,
    body: codeBody,
    response: z.strictObject({ is_code_valid: z.literal(true) }),
    errors: CODE_ERRORS,
  }),
  teamInvitationDetails: defineEndpoint({
    method: "POST",
    path: "/team-invitations/accept/details",
    summary: "The team an invitation code is for",
    tags: TAGS,
    access: ALL,
    user: "required",
    body: codeBody,
    response: teamInvitationDetailsJson,
    errors: [...CODE_ERRORS, KnownErrors.TeamInvitationRestrictedUserNotAllowed],
  }),
};
