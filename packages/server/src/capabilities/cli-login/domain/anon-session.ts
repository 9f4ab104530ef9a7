/**
 * A CLI that came with an anonymous session, and a signed-out visitor who
 * opens its link. `check` says whether that session is still a live one of
 * an anonymous user. `claim-anon-session` signs the browser in as that
 * anonymous user, once, so the visitor can sign up as them (sign-up upgrades
 * the user in place) and then confirm. The browser gets a new session of its
 * own, and the CLI's session ends in the same transaction: a login link
 * opened by someone else (a phished visitor who then signs up) never leaves
 * a CLI holding a session of the account made in that browser. The CLI gets
 * the account's session only through `complete`, like any other.
 */
import { StatusError } from "@latchkey/shared";
import { and, eq } from "drizzle-orm";
import { users } from "../../../db/schema/index.ts";
import { inTenancy } from "../../../db/tenancy.ts";
import { deleteSession } from "../../../domain/sessions/sessions.ts";
import { findUser } from "../../../domain/users/record.ts";
import { signInAnonymousUser } from "../../../domain/auth/anonymous/anonymous-sign-up.ts";
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
    // Locked until this commits, so the user cannot sign up (stop being anonymous) between this read and the new session.
    await tx
      .select({ id: users.id })
      .from(users)
      .where(and(inTenancy(users, tenancy), eq(users.id, check.user.id)))
      .for("update");
    const user = await findUser(tx, project.id, branchId, check.user.id);
    if (!user?.isAnonymous) throw new StatusError(400, CLI_AUTH_MESSAGES.anonSessionGone);
    // Deleting the CLI's session is also the last check that it is still there (signed out concurrently).
    const ended = await deleteSession(tx, services.events, project.id, branchId, user.id, check.session.id);
    if (!ended) throw new StatusError(400, CLI_AUTH_MESSAGES.anonSessionGone);
    const issued = await signInAnonymousUser(services, tx, project, user);
    return { accessToken: issued.accessToken, refreshToken: issued.refreshToken };
  });
}
