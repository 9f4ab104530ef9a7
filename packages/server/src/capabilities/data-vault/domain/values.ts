/**
 * Reading and writing a data vault store's values. A store exists when the
 * project's config names it (`dataVault.stores.<id>`); its values are what
 * the SDK sent, sealed at rest (envelope.ts) under the server's sealer.
 * A write replaces the key's value, with a new data key.
 */
import { KnownErrors } from "@latchkey/shared";
import { and, eq } from "drizzle-orm";
import { inTenancy } from "../../../db/tenancy.ts";
import type { ProjectRow } from "../../../domain/projects/project-row.ts";
import type { Services } from "../../../services.ts";
import { dataVaultValues } from "../schema.ts";
import { openValue, sealValue, type ValuePlace } from "./envelope.ts";

export interface VaultContext {
  services: Services;
  project: ProjectRow;
  branchId: string;
}

/** The store must be in the config; the id is checked as given (blanks included), never trimmed. */
function placeOf(ctx: VaultContext, storeId: string, hashedKey: string): ValuePlace {
  if (!Object.hasOwn(ctx.project.rendered.dataVault.stores, storeId)) throw new KnownErrors.DataVaultStoreDoesNotExist(storeId);
  return { projectId: ctx.project.id, branchId: ctx.branchId, storeId, hashedKey };
}

export async function setVaultValue(ctx: VaultContext, storeId: string, hashedKey: string, encryptedValue: string): Promise<void> {
  const place = placeOf(ctx, storeId, hashedKey);
  const sealed = await sealValue(ctx.services.dataVaultSealer, place, encryptedValue);
  const now = ctx.services.clock.date();
  const stored = { keyId: sealed.dataKey.keyId, wrappedDataKey: sealed.dataKey.wrapped, sealedValue: sealed.sealed, updatedAt: now };
  await ctx.services.db
    .insert(dataVaultValues)
    .values({ ...place, ...stored, createdAt: now })
    .onConflictDoUpdate({
      target: [dataVaultValues.projectId, dataVaultValues.branchId, dataVaultValues.storeId, dataVaultValues.hashedKey],
      set: stored,
    });
}

export async function getVaultValue(ctx: VaultContext, storeId: string, hashedKey: string): Promise<string> {
  const place = placeOf(ctx, storeId, hashedKey);
  const [row] = await ctx.services.db
    .select({ keyId: dataVaultValues.keyId, wrapped: dataVaultValues.wrappedDataKey, sealed: dataVaultValues.sealedValue })
    .from(dataVaultValues)
    .where(and(inTenancy(dataVaultValues, place), eq(dataVaultValues.storeId, storeId), eq(dataVaultValues.hashedKey, hashedKey)));
  if (!row) throw new KnownErrors.DataVaultStoreHashedKeyDoesNotExist(storeId, hashedKey);
  return openValue(ctx.services.dataVaultSealer, place, { dataKey: { keyId: row.keyId, wrapped: row.wrapped }, sealed: row.sealed });
}
