/**
 * The CLI's poll. Checked in this order: expired, already handed over,
 * still waiting for the browser; otherwise the confirmed session is handed
 * over, once: one conditional UPDATE marks the request used and drops the
 * sealed token, so of concurrent polls exactly one receives it.
 */
import { KnownErrors, type CliAuthPollJson } from "@latchkey/shared";
import { and, gt, isNull } from "drizzle-orm";
import { cliAuthAttempts } from "../../../db/schema/index.ts";
import type { Services } from "../../../services.ts";
import { findByPollingCode, openToken, sealedIs, updateIf, type CliScope } from "./attempts.ts";

export async function pollCliAuth(services: Services, scope: CliScope, pollingCode: string): Promise<CliAuthPollJson> {
  const now = new Date();
  const row = await findByPollingCode(services.db, scope, pollingCode);
  if (!row) throw new KnownErrors.InvalidPollingCode();
  if (row.expiresAt.getTime() <= now.getTime()) return { status: "expired" };
  if (row.usedAt !== null) return { status: "used" };
  if (row.refreshTokenSealed === null) return { status: "waiting" };
  const claimed = await updateIf(
    services.db,
    row.id,
    and(
      isNull(cliAuthAttempts.usedAt),
      gt(cliAuthAttempts.expiresAt, now),
      sealedIs(cliAuthAttempts.refreshTokenSealed, row.refreshTokenSealed),
    )!,
    { usedAt: now, refreshTokenSealed: null },
  );
  if (!claimed) return { status: "used" };
  return { status: "success", refresh_token: openToken(services.config.serverSecret, "cli-refresh-token", row.refreshTokenSealed) };
}
