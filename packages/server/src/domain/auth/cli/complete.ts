/**
 * The browser's side of a CLI login, in three modes. `complete` hands the
 * CLI the confirming user's own session (the refresh token the browser
 * sends): a live session of this project of a user who is not restricted.
 * `check` says whether the CLI came with a live anonymous session, and
 * `claim-anon-session` gives that session to the browser, once, so the
 * visitor can sign up as that user. Every mode needs an open login code
 * (not expired, not confirmed, not spent); anything else is refused as
 * plain text, and a refusal changes nothing.
 */
import { KnownErrors, StatusError } from "@latchkey/shared";
import { and } from "drizzle-orm";
import { cliAuthAttempts } from "../../../db/schema/index.ts";
import type { Services } from "../../../services.ts";
import type { ProjectRow } from "../../projects/projects.ts";
import { refreshAccessToken } from "../../sessions/refresh.ts";
import { restrictedReason } from "../../users/record.ts";
import { findOpenByLoginCode, isOpen, openToken, sealedIs, sealToken, updateIf, type CliAuthAttemptRow } from "./attempts.ts";
import { CLI_AUTH_MESSAGES } from "./messages.ts";
import { inspectRefreshToken } from "./refresh-tokens.ts";

interface CompleteContext {
  services: Services;
  project: ProjectRow;
  branchId: string;
}

async function openAttempt(ctx: CompleteContext, loginCode: string, now: Date): Promise<CliAuthAttemptRow> {
  const row = await findOpenByLoginCode(ctx.services.db, { projectId: ctx.project.id, branchId: ctx.branchId }, loginCode, now);
  if (!row) throw new StatusError(400, CLI_AUTH_MESSAGES.invalidLoginCode);
  return row;
}

export async function completeCliAuth(ctx: CompleteContext, loginCode: string, refreshToken: string | undefined): Promise<void> {
  const now = new Date();
  const row = await openAttempt(ctx, loginCode, now);
  if (refreshToken === undefined) throw new StatusError(400, CLI_AUTH_MESSAGES.refreshTokenRequired);
  const check = await inspectRefreshToken(ctx.services.db, ctx.project.id, ctx.branchId, refreshToken);
  if (check.kind === "other-project") throw new StatusError(400, CLI_AUTH_MESSAGES.refreshTokenOfOtherProject);
  if (check.kind === "no-user") throw new StatusError(400, CLI_AUTH_MESSAGES.refreshTokenUserGone);
  if (check.kind !== "live") throw new StatusError(400, CLI_AUTH_MESSAGES.invalidRefreshToken);
  // Anonymous users are restricted too: a visitor signs up (or in) before a CLI gets their session.
  const restricted = restrictedReason(check.user, ctx.project.config.require_email_verification);
  if (restricted) throw new KnownErrors.RestrictedUserNotAllowed(restricted);
  const sealed = sealToken(ctx.services.config.serverSecret, "cli-refresh-token", refreshToken);
  // The CLI's anonymous session is no longer offered once a user confirmed.
  const confirmed = await updateIf(ctx.services.db, row.id, isOpen(now), {
    refreshTokenSealed: sealed,
    anonRefreshTokenSealed: null,
    completedAt: now,
  });
  if (!confirmed) throw new StatusError(400, CLI_AUTH_MESSAGES.invalidLoginCode);
}

/** The CLI's anonymous refresh token, if it still stands for a live anonymous user of this project. */
async function liveAnonToken(ctx: CompleteContext, row: CliAuthAttemptRow): Promise<string | null> {
  if (row.anonRefreshTokenSealed === null) return null;
  const token = openToken(ctx.services.config.serverSecret, "cli-anon-refresh-token", row.anonRefreshTokenSealed);
  const check = await inspectRefreshToken(ctx.services.db, ctx.project.id, ctx.branchId, token);
  return check.kind === "live" && check.user.isAnonymous ? token : null;
}

export async function checkCliAuth(ctx: CompleteContext, loginCode: string): Promise<"anonymous" | "none"> {
  const row = await openAttempt(ctx, loginCode, new Date());
  return (await liveAnonToken(ctx, row)) === null ? "none" : "anonymous";
}

export async function claimCliAnonSession(
  ctx: CompleteContext,
  loginCode: string,
  ip: string | null,
): Promise<{ accessToken: string; refreshToken: string }> {
  const now = new Date();
  const row = await openAttempt(ctx, loginCode, now);
  if (row.anonRefreshTokenSealed === null) throw new StatusError(400, CLI_AUTH_MESSAGES.noAnonSession);
  const token = await liveAnonToken(ctx, row);
  if (token === null) throw new StatusError(400, CLI_AUTH_MESSAGES.anonSessionGone);
  const claimed = await updateIf(
    ctx.services.db,
    row.id,
    and(isOpen(now), sealedIs(cliAuthAttempts.anonRefreshTokenSealed, row.anonRefreshTokenSealed))!,
    { anonRefreshTokenSealed: null },
  );
  if (!claimed) throw new StatusError(400, CLI_AUTH_MESSAGES.noAnonSession);
  try {
    return { accessToken: await refreshAccessToken(ctx.services, ctx.project, ctx.branchId, token, ip), refreshToken: token };
  } catch (error) {
    // Signed out between the check and now.
    if (error instanceof KnownErrors.RefreshTokenNotFoundOrExpired) throw new StatusError(400, CLI_AUTH_MESSAGES.anonSessionGone);
    throw error;
  }
}
