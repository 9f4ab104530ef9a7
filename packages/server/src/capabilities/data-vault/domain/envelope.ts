/**
 * Envelope encryption of one stored value: the value is sealed with a data
 * key of its own (fresh for every write), and only that data key goes to
 * the sealer to be wrapped. Both are bound to the value's place (project,
 * branch, store, hashed key), so rows copied or swapped in the database do
 * not open. Re-wrapping (a rotation) changes the wrapped key only; the
 * sealed value stays as it is.
 */
import { randomBytes } from "node:crypto";
import type { Tenancy } from "../../../db/tenancy.ts";
import { gcmOpen, gcmSeal } from "./aes-gcm.ts";
import type { Sealer, WrappedKey } from "./sealer.ts";

export interface SealedValue {
  /** The wrapped data key, with the id of the key-encryption key that wrapped it. */
  dataKey: WrappedKey;
  /** The value under the data key (aes-gcm.ts). */
  sealed: string;
}

export interface ValuePlace extends Tenancy {
  storeId: string;
  hashedKey: string;
}

/** The associated data of a value and of its data key. */
export function placeContext(place: ValuePlace): string {
  return JSON.stringify(["latchkey-data-vault-value", place.projectId, place.branchId, place.storeId, place.hashedKey]);
}

export async function sealValue(sealer: Sealer, place: ValuePlace, value: string): Promise<SealedValue> {
  return sealUnder(sealer, placeContext(place), value);
}

export async function openValue(sealer: Sealer, place: ValuePlace, value: SealedValue): Promise<string> {
  return openUnder(sealer, placeContext(place), value);
}

/**
 * The same envelope for another secret the server keeps (a project's payment provider key): `context` names
 * its place, in a form no vault value's place takes (placeContext's first element differs).
 */
export async function sealUnder(sealer: Sealer, context: string, value: string): Promise<SealedValue> {
  const dataKey = randomBytes(32);
  try {
    return { dataKey: await sealer.wrap(dataKey, context), sealed: gcmSeal(dataKey, Buffer.from(value, "utf8"), context) };
  } finally {
    dataKey.fill(0);
  }
}

export async function openUnder(sealer: Sealer, context: string, value: SealedValue): Promise<string> {
  const dataKey = await sealer.unwrap(value.dataKey, context);
  try {
    return Buffer.from(gcmOpen(dataKey, value.sealed, context)).toString("utf8");
  } finally {
    dataKey.fill(0);
  }
}

/** The same data key wrapped under the sealer's current key-encryption key. */
export async function rewrapDataKey(sealer: Sealer, place: ValuePlace, dataKey: WrappedKey): Promise<WrappedKey> {
  return rewrapUnder(sealer, placeContext(place), dataKey);
}

/** rewrapDataKey for a secret sealed with sealUnder. */
export async function rewrapUnder(sealer: Sealer, context: string, dataKey: WrappedKey): Promise<WrappedKey> {
  const plain = await sealer.unwrap(dataKey, context);
  try {
    return await sealer.wrap(plain, context);
  } finally {
    plain.fill(0);
  }
}
