/**
 * A team's people: its members with their profile in that team, the
 * signed-in user's own (editable) profile, and pending invitations — as the
 * team sees them and as their recipient sees them.
 */
import type { TeamMemberProfilePatchBody } from "@latchkey/shared/api/index";
import { snakeCaseKeys, type CamelCaseKeys } from "@latchkey/shared/case";
import type { AccessType, ApiClient } from "../interface/api-client.ts";
import type { Session } from "../session/session.ts";
import type { ClientTeamMemberProfileJson, ServerTeamMemberProfileJson, TeamInvitationJson } from "./json.ts";
import type { ServerUser } from "./server-user.ts";

/** A member's name and image in one team (they start as the user's own). */
export interface TeamMemberProfile {
  readonly displayName: string | null;
  readonly profileImageUrl: string | null;
}

export type TeamMemberProfileUpdateOptions = CamelCaseKeys<TeamMemberProfilePatchBody>;

/** The signed-in user's own profile in a team. */
export interface EditableTeamMemberProfile extends TeamMemberProfile {
  update(options: TeamMemberProfileUpdateOptions): Promise<void>;
}

export interface TeamUser {
  readonly id: string;
  readonly teamProfile: TeamMemberProfile;
}

/** A member as a server sees them: the whole user, with their profile in the team. */
export type ServerTeamUser = ServerUser & { readonly teamProfile: TeamMemberProfile };

/** An invitation as the team sees it; revoking needs `$remove_members` from a client. */
export interface TeamInvitation {
  readonly id: string;
  readonly recipientEmail: string;
  readonly expiresAt: Date;
  revoke(): Promise<void>;
}

/** An invitation to one of a user's verified addresses (the signed-in user's, or on a server any user's). */
export interface UserTeamInvitation {
  readonly id: string;
  readonly teamId: string;
  readonly teamDisplayName: string;
  readonly recipientEmail: string;
  readonly expiresAt: Date;
  /** The user joins the team (with the member defaults); the invitation is spent. */
  accept(): Promise<void>;
}

/** How member objects reach the API: the app's access, the signed-in user's session on a client. */
export interface MemberContext {
  api: ApiClient;
  accessType: AccessType;
  session: Session | null;
  /** Tells the app teams changed, so its cached team reads are read again. */
  changed(): void;
}

export function teamMemberProfileFromJson(json: ClientTeamMemberProfileJson): TeamMemberProfile {
  return { displayName: json.display_name, profileImageUrl: json.profile_image_url };
}

export function teamUserFromJson(json: ClientTeamMemberProfileJson): TeamUser {
  return { id: json.user_id, teamProfile: teamMemberProfileFromJson(json) };
}

export function serverTeamUserFromJson(
  json: ServerTeamMemberProfileJson,
  user: (json: ServerTeamMemberProfileJson["user"]) => ServerUser,
): ServerTeamUser {
  return Object.assign(user(json.user), { teamProfile: teamMemberProfileFromJson(json) });
}

/** A profile whose `update` changes it for `userIdOrMe` (`me` on a client: a client edits only its own). */
export function editableTeamMemberProfile(
  json: ClientTeamMemberProfileJson,
  context: MemberContext,
  userIdOrMe: string,
): EditableTeamMemberProfile {
  return {
    ...teamMemberProfileFromJson(json),
    async update(options) {
      await context.api.call("PATCH /team-member-profiles/:team_id/:user_id", {
        accessType: context.accessType,
        session: context.session,
        params: { team_id: json.team_id, user_id: userIdOrMe },
        body: snakeCaseKeys(options),
      });
      context.changed();
    },
  };
}

export function teamInvitationFromJson(json: TeamInvitationJson, context: MemberContext): TeamInvitation {
  return {
    id: json.id,
    recipientEmail: json.recipient_email,
    expiresAt: new Date(json.expires_at_millis),
    async revoke() {
      await context.api.call("DELETE /team-invitations/:invitation_id", {
        accessType: context.accessType,
        session: context.session,
        params: { invitation_id: json.id },
        query: { team_id: json.team_id },
      });
      context.changed();
    },
  };
}

/** `userIdOrMe`: whose list it came from (`me` on a client), and so who accepts it. */
export function userTeamInvitationFromJson(json: TeamInvitationJson, context: MemberContext, userIdOrMe: string): UserTeamInvitation {
  return {
    id: json.id,
    teamId: json.team_id,
    teamDisplayName: json.team_display_name,
    recipientEmail: json.recipient_email,
    expiresAt: new Date(json.expires_at_millis),
    async accept() {
      await context.api.call("POST /team-invitations/:invitation_id/accept", {
        accessType: context.accessType,
        session: context.session,
        params: { invitation_id: json.id },
        query: { user_id: userIdOrMe },
      });
      context.changed();
    },
  };
}
