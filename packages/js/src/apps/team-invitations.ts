/**
 * The code an invitation mail carries, as its recipient uses it: check it,
 * see which team it is for, accept it. A stale or unknown code is part of
 * the answer (a Result), as in apps/email-codes.ts; anything else is thrown.
 */
import { KnownErrors } from "@latchkey/shared/known-errors/index";
import type { AccessType, ApiClient } from "../interface/api-client.ts";
import { Result } from "../result.ts";
import type { Session } from "../session/session.ts";
import { normalizeCode, type VerificationCodeError } from "./email-codes.ts";

export interface InvitationCodeContext {
  api: ApiClient;
  accessType: AccessType;
  /** The signed-in user's session (who joins). */
  session: Session;
}

export interface TeamInvitationDetails {
  teamId: string;
  teamDisplayName: string;
}

const CODE_ERRORS = [KnownErrors.VerificationCodeError];

/** Whether the code may still be accepted; no user is needed. */
export function verifyTeamInvitationCode(ctx: InvitationCodeContext, code: string): Promise<Result<undefined, VerificationCodeError>> {
  return Result.of<undefined, VerificationCodeError>(CODE_ERRORS, async () => {
    await ctx.api.call("POST /team-invitations/accept/check-code", { accessType: ctx.accessType, body: { code: normalizeCode(code) } });
    return undefined;
  });
}

export function getTeamInvitationDetails(
  ctx: InvitationCodeContext,
  code: string,
): Promise<Result<TeamInvitationDetails, VerificationCodeError>> {
  return Result.of<TeamInvitationDetails, VerificationCodeError>(CODE_ERRORS, async () => {
    const json = await ctx.api.call("POST /team-invitations/accept/details", {
      accessType: ctx.accessType,
      session: ctx.session,
      body: { code: normalizeCode(code) },
    });
    return { teamId: json.team_id, teamDisplayName: json.team_display_name };
  });
}

/** The signed-in user joins the team with the team-member default permissions (already a member: nothing changes). */
export function acceptTeamInvitation(ctx: InvitationCodeContext, code: string): Promise<Result<undefined, VerificationCodeError>> {
  return Result.of<undefined, VerificationCodeError>(CODE_ERRORS, async () => {
    await ctx.api.call("POST /team-invitations/accept", {
      accessType: ctx.accessType,
      session: ctx.session,
      body: { code: normalizeCode(code) },
    });
    return undefined;
  });
}
