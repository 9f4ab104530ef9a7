/**
 * The CLI's poll. Checked in this order: expired (its sealed sessions are
 * dropped then), already handed over, still waiting for the browser;
 * otherwise the confirmed session is handed over, once: one conditional
 * UPDATE marks the request used and drops the sealed token, so of
 * concurrent polls exactly one receives it. A confirmed session that has
 * ended since (signed out, revoked, its user deleted) is not handed over:
 * the request goes back to waiting, and the user may confirm again.
 */
import { KnownErrors, type CliAuthPollJson } from "@latchkey/shared";
import { and, gt, isNull } from "drizzle-orm";
import type { Tenancy } from "../../../db/tenancy.ts";
import type { Services } from "../../../services.ts";
import {
  dropTokensOfExpired,
  findById,
  findByPollingCode,
  isExpired,
  openToken,
  sealedIs,
  updateIf,
  type CliAuthAttemptRow,
} from "./attempts.ts";
import { cliAuthAttempts } from "../schema.ts";
import { inspectRefreshToken } from "./refresh-tokens.ts";

export async function pollCliAuth(services: Services, tenancy: Tenancy, pollingCode: string): Promise<CliAuthPollJson> {
  const row = await findByPollingCode(services.db, tenancy, pollingCode);
  if (!row) throw new KnownErrors.InvalidPollingCode();
  return handOver(services, tenancy, row);
}

/**
 * The poll's answer for the request as read in `row`. Every change is
 * conditioned on the row still being as read, so a stale `row` (another poll
 * or completion got there first) changes nothing and hands nothing over.
 */
export async function handOver(services: Services, tenancy: Tenancy, row: CliAuthAttemptRow): Promise<CliAuthPollJson> {
  const settled = await statusWithoutHandOver(services, row);
  if (settled) return settled;
  const sealed = row.refreshTokenSealed!;
  // Opened before anything is changed: a token that cannot be opened (a changed server secret) must not spend the login.
  const refreshToken = openToken(services.config.serverSecret, "cli-refresh-token", sealed);
  const stillAsRead = and(isNull(cliAuthAttempts.usedAt), sealedIs(cliAuthAttempts.refreshTokenSealed, sealed))!;
  const check = await inspectRefreshToken(services.db, tenancy, refreshToken, services.clock.date());
  if (check.kind !== "live") {
    await updateIf(services.db, row, stillAsRead, { refreshTokenSealed: null, completedAt: null });
    return { status: "waiting" };
  }
  const now = services.clock.date();
  const claimed = await updateIf(services.db, row, and(stillAsRead, gt(cliAuthAttempts.expiresAt, now))!, {
    usedAt: now,
    refreshTokenSealed: null,
  });
  if (claimed) return { status: "success", refresh_token: refreshToken };
  // Changed since it was read: answer for what it is now (a session confirmed again meanwhile goes to the next poll).
  const current = await findById(services.db, tenancy, row.id);
  if (!current) return { status: "expired" };
  return (await statusWithoutHandOver(services, current)) ?? { status: "waiting" };
}

/** The answer when there is nothing to hand over (expired, used, waiting); null when there is. */
async function statusWithoutHandOver(services: Services, row: CliAuthAttemptRow): Promise<CliAuthPollJson | null> {
  const now = services.clock.date();
  if (isExpired(row, now)) {
    await dropTokensOfExpired(services.db, row, now);
    return { status: "expired" };
  }
  if (row.usedAt !== null) return { status: "used" };
  if (row.refreshTokenSealed === null) return { status: "waiting" };
  return null;
}
