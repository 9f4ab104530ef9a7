/**
 * A CLI that came with an anonymous session, and a signed-out visitor who
 * opens its link. `check` says whether that session is still a live one of
 * an anonymous user. `claim-anon-session` hands the browser that very
 * session (the CLI's own refresh token, with a fresh access token), once,
 * so the visitor continues as the CLI's anonymous user: signing up upgrades
 * that user in place, and `complete` then confirms the login. Browser and
 * CLI share the session from then on, as clients of the contract expect:
 * whoever opens a CLI's link and signs up there makes the account the CLI
 * is signed in as.
 */
import { StatusError } from "@latchkey/shared";
import { and, eq } from "drizzle-orm";
import { sessions, users } from "../../../db/schema/index.ts";
import { inTenancy } from "../../../db/tenancy.ts";
import { tokenSubject } from "../../../domain/sessions/issue.ts";
import { findUser } from "../../../domain/users/record.ts";
import { isOpen, openToken, sealedIs, updateIf, type CliAuthAttemptRow } from "./attempts.ts";
import { openAttempt, tenancyOfContext, type CompleteContext } from "./complete.ts";
import { CLI_AUTH_MESSAGES } from "./messages.ts";
import { inspectRefreshToken } from "./refresh-tokens.ts";
import { cliAuthAttempts } from "../schema.ts";

export async function checkCliAuth(ctx: CompleteContext, loginCode: string): Promise<"anonymous" | "none"> {
  const row = await openAttempt(ctx, loginCode);
  if (row.anonRefreshTokenSealed === null) return "none";
  const token = openToken(ctx.services.config.serverSecret, "cli-anon-refresh-token", row.anonRefreshTokenSealed);
  const check = await inspectRefreshToken(ctx.services.db, tenancyOfContext(ctx), token, ctx.services.clock.date());
  return check.kind === "live" && check.user.isAnonymous ? "anonymous" : "none";
}

export async function claimCliAnonSession(ctx: CompleteContext, loginCode: string): Promise<{ accessToken: string; refreshToken: string }> {
  return takeOverAnonSession(ctx, await openAttempt(ctx, loginCode));
}

/**
 * The claim of the request as read in `row`: conditioned on the row being
 * still open and still offering that same session, so a stale `row` (a claim
 * or completion got there first) changes nothing.
 */
export async function takeOverAnonSession(
  ctx: CompleteContext,
  row: CliAuthAttemptRow,
): Promise<{ accessToken: string; refreshToken: string }> {
  const sealed = row.anonRefreshTokenSealed;
  if (sealed === null) throw new StatusError(400, CLI_AUTH_MESSAGES.noAnonSession);
  const cliToken = openToken(ctx.services.config.serverSecret, "cli-anon-refresh-token", sealed);
  const { services, project, branchId } = ctx;
  const tenancy = tenancyOfContext(ctx);
  // Any refusal below throws, which rolls the whole claim back.
  return services.events.transaction(services.db, async (tx) => {
    const claimed = await updateIf(tx, row, and(isOpen(services.clock.date()), sealedIs(cliAuthAttempts.anonRefreshTokenSealed, sealed))!, {
      anonRefreshTokenSealed: null,
    });
    if (!claimed) throw new StatusError(400, CLI_AUTH_MESSAGES.noAnonSession);
    const check = await inspectRefreshToken(tx, tenancy, cliToken, services.clock.date());
    if (check.kind !== "live") throw new StatusError(400, CLI_AUTH_MESSAGES.anonSessionGone);
    // Locked until this commits, so the user cannot sign up (stop being anonymous) between this read and the token.
    await tx
      .select({ id: users.id })
      .from(users)
      .where(and(inTenancy(users, tenancy), eq(users.id, check.user.id)))
      .for("update");
    const user = await findUser(tx, project.id, branchId, check.user.id);
    if (!user?.isAnonymous) throw new StatusError(400, CLI_AUTH_MESSAGES.anonSessionGone);
    // Held until the commit: a sign-out of the CLI's session either came first (refused here) or waits.
    const [session] = await tx
      .select({ id: sessions.id })
      .from(sessions)
      .where(and(inTenancy(sessions, tenancy), eq(sessions.id, check.session.id)))
      .for("share");
    if (!session) throw new StatusError(400, CLI_AUTH_MESSAGES.anonSessionGone);
    const accessToken = await services.tokens.issue(tokenSubject(user, project, session.id));
    return { accessToken, refreshToken: cliToken };
  });
}
