/**
 * The browser's side of a CLI login. `complete` hands the CLI the confirming
 * user's own session (the refresh token the browser sends): a live session
 * of this project and branch of a user who is not restricted. The modes for
 * a CLI that came with an anonymous session are in anon-session.ts. Every
 * mode needs an open login code (not expired, not confirmed, not spent);
 * anything else is refused as plain text, and a refusal changes nothing
 * (but for the sealed sessions of an expired request, which are dropped).
 */
import { KnownErrors, StatusError } from "@latchkey/shared";
import type { Tenancy } from "../../../db/tenancy.ts";
import type { Services } from "../../../services.ts";
import type { ProjectRow } from "../../../domain/projects/projects.ts";
import { restrictedReason } from "../../../domain/users/record.ts";
import { dropTokensOfExpired, findByLoginCode, isExpired, isOpen, sealToken, updateIf, type CliAuthAttemptRow } from "./attempts.ts";
import { CLI_AUTH_MESSAGES } from "./messages.ts";
import { inspectRefreshToken } from "./refresh-tokens.ts";

export interface CompleteContext {
  services: Services;
  project: ProjectRow;
  branchId: string;
}

/** The project and branch the browser's request is for. */
export function tenancyOfContext(ctx: CompleteContext): Tenancy {
  return { projectId: ctx.project.id, branchId: ctx.branchId };
}

/** The open request a login code belongs to; refused otherwise. */
export async function openAttempt(ctx: CompleteContext, loginCode: string): Promise<CliAuthAttemptRow> {
  const row = await findByLoginCode(ctx.services.db, tenancyOfContext(ctx), loginCode);
  const now = ctx.services.clock.date();
  if (row && isExpired(row, now)) await dropTokensOfExpired(ctx.services.db, row, now);
  if (!row || isExpired(row, now) || row.usedAt !== null || row.refreshTokenSealed !== null) {
    throw new StatusError(400, CLI_AUTH_MESSAGES.invalidLoginCode);
  }
  return row;
}

export async function completeCliAuth(ctx: CompleteContext, loginCode: string, refreshToken: string | undefined): Promise<void> {
  const row = await openAttempt(ctx, loginCode);
  if (refreshToken === undefined) throw new StatusError(400, CLI_AUTH_MESSAGES.refreshTokenRequired);
  const check = await inspectRefreshToken(ctx.services.db, tenancyOfContext(ctx), refreshToken, ctx.services.clock.date());
  if (check.kind === "other-project") throw new StatusError(400, CLI_AUTH_MESSAGES.refreshTokenOfOtherProject);
  if (check.kind === "no-user") throw new StatusError(400, CLI_AUTH_MESSAGES.refreshTokenUserGone);
  if (check.kind !== "live") throw new StatusError(400, CLI_AUTH_MESSAGES.invalidRefreshToken);
  // Anonymous users are restricted too: a visitor signs up (or in) before a CLI gets their session.
  const restricted = restrictedReason(check.user, ctx.project.config.require_email_verification);
  if (restricted) throw new KnownErrors.RestrictedUserNotAllowed(restricted);
  const sealed = sealToken(ctx.services.config.serverSecret, "cli-refresh-token", refreshToken);
  // The clock is read again here: the checks above took time, and a request that expired meanwhile must stay unconfirmed.
  const now = ctx.services.clock.date();
  // The CLI's anonymous session is no longer offered once a user confirmed.
  const confirmed = await updateIf(ctx.services.db, row, isOpen(now), {
    refreshTokenSealed: sealed,
    anonRefreshTokenSealed: null,
    completedAt: now,
  });
  if (!confirmed) throw new StatusError(400, CLI_AUTH_MESSAGES.invalidLoginCode);
}
