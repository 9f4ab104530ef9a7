/**
 * Rotating the key-encryption key: every data key still wrapped under
 * another key than the sealer's current one is unwrapped and wrapped again
 * under the current one; the sealed values themselves are not touched. The
 * servers keep reading throughout, as long as they list both secrets (the
 * new one first). Rows are walked in primary-key order, a batch at a time;
 * a row written meanwhile (already under the current key, or replaced) is
 * left as the writer left it: each update applies only if the row still
 * holds the data key that was re-wrapped.
 */
import { and, asc, eq, gt, ne, or } from "drizzle-orm";
import type { Db } from "../../../db/connect.ts";
import { inTenancy } from "../../../db/tenancy.ts";
import { dataVaultValues } from "../schema.ts";
import { rewrapDataKey } from "./envelope.ts";
import type { Sealer } from "./sealer.ts";

const BATCH = 100;

export interface RotationReport {
  /** Data keys now wrapped under the current key that were not before. */
  rewrapped: number;
}

type Cursor = { projectId: string; branchId: string; storeId: string; hashedKey: string };

/** Rows after `cursor` in primary-key order. */
function after(c: Cursor) {
  const t = dataVaultValues;
  return or(
    gt(t.projectId, c.projectId),
    and(eq(t.projectId, c.projectId), gt(t.branchId, c.branchId)),
    and(eq(t.projectId, c.projectId), eq(t.branchId, c.branchId), gt(t.storeId, c.storeId)),
    and(eq(t.projectId, c.projectId), eq(t.branchId, c.branchId), eq(t.storeId, c.storeId), gt(t.hashedKey, c.hashedKey)),
  );
}

/**
 * Walks again while a walk met rows replaced under it (a writer's new row is under the current key, so this ends).
 * Throws UnknownKeyEncryptionKeyError (sealer.ts), having re-wrapped what came before, when a row's key is not configured.
 */
export async function rotateDataVaultKeys(db: Db, sealer: Sealer): Promise<RotationReport> {
  let rewrapped = 0;
  for (;;) {
    const pass = await rotationPass(db, sealer);
    rewrapped += pass.rewrapped;
    if (pass.skipped === 0) return { rewrapped };
  }
}

async function rotationPass(db: Db, sealer: Sealer): Promise<{ rewrapped: number; skipped: number }> {
  const t = dataVaultValues;
  const report = { rewrapped: 0, skipped: 0 };
  let cursor: Cursor | null = null;
  for (;;) {
    // tenancy: a rotation re-wraps the data keys of every project and branch
    const rows = await db
      .select({
        projectId: t.projectId,
        branchId: t.branchId,
        storeId: t.storeId,
        hashedKey: t.hashedKey,
        keyId: t.keyId,
        wrapped: t.wrappedDataKey,
      })
      .from(t)
      .where(and(ne(t.keyId, sealer.currentKeyId), cursor ? after(cursor) : undefined))
      .orderBy(asc(t.projectId), asc(t.branchId), asc(t.storeId), asc(t.hashedKey))
      .limit(BATCH);
    for (const row of rows) {
      const rewrapped = await rewrapDataKey(sealer, row, { keyId: row.keyId, wrapped: row.wrapped });
      const updated = await db
        .update(t)
        .set({ keyId: rewrapped.keyId, wrappedDataKey: rewrapped.wrapped })
        .where(
          and(
            inTenancy(t, row),
            eq(t.storeId, row.storeId),
            eq(t.hashedKey, row.hashedKey),
            eq(t.keyId, row.keyId),
            eq(t.wrappedDataKey, row.wrapped),
          ),
        )
        .returning({ keyId: t.keyId });
      if (updated.length === 1) report.rewrapped += 1;
      else report.skipped += 1;
    }
    if (rows.length < BATCH) return report;
    cursor = rows[rows.length - 1]!;
  }
}
