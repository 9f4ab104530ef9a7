/**
 * CLI login requests (table cli_auth_attempts): found by the digest of
 * their polling or login code, always within one project and branch, and
 * compared against the clock of the caller (so an expired row is never
 * usable, whether or not it was cleaned up). Refresh tokens kept on a row
 * are sealed with the server secret, each kind under its own purpose, and
 * dropped as soon as the request is seen expired; the row itself goes a day
 * after it expired (see `deleteLongExpired`).
 */
import { and, eq, gt, isNotNull, isNull, lte, or, type SQL } from "drizzle-orm";
import type { DbOrTx } from "../../../db/connect.ts";
import { sweepOlderThan } from "../../../db/sweep.ts";
import { inTenancy, type Tenancy } from "../../../db/tenancy.ts";
import { cliAuthAttempts } from "../schema.ts";
import { decryptWithSecret, encryptWithSecret, sha256Hex } from "../../../lib/secrets.ts";

export type CliAuthAttemptRow = typeof cliAuthAttempts.$inferSelect;

type SealPurpose = "cli-refresh-token" | "cli-anon-refresh-token";

export function sealToken(serverSecret: string, purpose: SealPurpose, token: string): string {
  return encryptWithSecret(serverSecret, purpose, token);
}

export function openToken(serverSecret: string, purpose: SealPurpose, sealed: string): string {
  return decryptWithSecret(serverSecret, purpose, sealed);
}

/** Codes are issued in lower case; a caller's spelling of one is matched regardless of case. */
export function codeDigest(code: string): string {
  return sha256Hex(code.toLowerCase());
}

export async function findByPollingCode(db: DbOrTx, tenancy: Tenancy, pollingCode: string): Promise<CliAuthAttemptRow | null> {
  const [row] = await db
    .select()
    .from(cliAuthAttempts)
    .where(and(inTenancy(cliAuthAttempts, tenancy), eq(cliAuthAttempts.pollingCodeHash, codeDigest(pollingCode))))
    .limit(1);
  return row ?? null;
}

export function isExpired(row: CliAuthAttemptRow, now: Date): boolean {
  return row.expiresAt.getTime() <= now.getTime();
}

/** Still waiting for the browser: not expired, nothing handed over yet, not spent. */
export function isOpen(now: Date): SQL {
  return and(isNull(cliAuthAttempts.refreshTokenSealed), isNull(cliAuthAttempts.usedAt), gt(cliAuthAttempts.expiresAt, now))!;
}

export async function findById(db: DbOrTx, tenancy: Tenancy, id: string): Promise<CliAuthAttemptRow | null> {
  const [row] = await db
    .select()
    .from(cliAuthAttempts)
    .where(and(inTenancy(cliAuthAttempts, tenancy), eq(cliAuthAttempts.id, id)))
    .limit(1);
  return row ?? null;
}

export async function findByLoginCode(db: DbOrTx, tenancy: Tenancy, loginCode: string): Promise<CliAuthAttemptRow | null> {
  const [row] = await db
    .select()
    .from(cliAuthAttempts)
    .where(and(inTenancy(cliAuthAttempts, tenancy), eq(cliAuthAttempts.loginCodeHash, codeDigest(loginCode))))
    .limit(1);
  return row ?? null;
}

/** A request's row, as its tenancy and id. */
type AttemptKey = Pick<CliAuthAttemptRow, "id" | "projectId" | "branchId">;

/** An expired request can never hand a session over: the sessions sealed on it are dropped now rather than kept until the row goes. */
export async function dropTokensOfExpired(db: DbOrTx, row: AttemptKey, now: Date): Promise<void> {
  await db
    .update(cliAuthAttempts)
    .set({ refreshTokenSealed: null, anonRefreshTokenSealed: null })
    .where(
      and(
        inTenancy(cliAuthAttempts, row),
        eq(cliAuthAttempts.id, row.id),
        lte(cliAuthAttempts.expiresAt, now),
        or(isNotNull(cliAuthAttempts.refreshTokenSealed), isNotNull(cliAuthAttempts.anonRefreshTokenSealed)),
      ),
    );
}

/**
 * Expired requests are kept a day, so a CLI that polls late hears "expired"
 * rather than that its code is unknown; then they are deleted.
 */
export const CLI_AUTH_KEPT_AFTER_EXPIRY_MILLIS = 24 * 3600 * 1000;
/** Rows deleted per sweep: one sweep stays one short statement however much has piled up. */
export const CLI_AUTH_SWEEP_ROWS = 100;

/**
 * Housekeeping, across all projects: deletes up to `CLI_AUTH_SWEEP_ROWS`
 * requests that expired over a day ago (found through the expiry index).
 * Rows another sweep is deleting are skipped, not waited for. Returns how
 * many went.
 */
export async function deleteLongExpired(db: DbOrTx, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - CLI_AUTH_KEPT_AFTER_EXPIRY_MILLIS);
  return sweepOlderThan(db, cliAuthAttempts, cliAuthAttempts.expiresAt, cutoff, CLI_AUTH_SWEEP_ROWS);
}

/** Applies `changes` to the row only while `condition` holds; whether it did (one winner among concurrent callers). */
export async function updateIf(
  db: DbOrTx,
  row: AttemptKey,
  condition: SQL,
  changes: Partial<Pick<CliAuthAttemptRow, "refreshTokenSealed" | "anonRefreshTokenSealed" | "completedAt" | "usedAt">>,
): Promise<boolean> {
  const rows = await db
    .update(cliAuthAttempts)
    .set(changes)
    .where(and(inTenancy(cliAuthAttempts, row), eq(cliAuthAttempts.id, row.id), condition))
    .returning({ id: cliAuthAttempts.id });
  return rows.length > 0;
}

/** Matches a sealed column's value as it was read (null included). */
export function sealedIs(
  column: typeof cliAuthAttempts.refreshTokenSealed | typeof cliAuthAttempts.anonRefreshTokenSealed,
  value: string | null,
): SQL {
  return value === null ? isNull(column) : eq(column, value);
}
