/**
 * A user's passkeys: listing, renaming, removing. `users.passkey_auth_enabled`
 * says whether a user has at least one; every write here keeps it in step
 * (with the user's row locked, so two removals cannot both leave it set) and
 * tells the caches the user changed.
 */
import { StatusError, type PasskeyJson } from "@latchkey/shared";
import { and, asc, eq } from "drizzle-orm";
import type { Db, DbOrTx } from "../../../db/connect.ts";
import { passkeys, users, type PasskeyRow } from "../../../db/schema/index.ts";
import { record, type Events, type EventTx } from "../../../events/transaction.ts";
import { inTenancy, type Tenancy } from "../../../db/tenancy.ts";
import { requireUser } from "../../contact-channels/channels.ts";

export function passkeyView(row: PasskeyRow): PasskeyJson {
  return {
    id: row.id,
    user_id: row.userId,
    display_name: row.displayName,
    created_at_millis: row.createdAt.getTime(),
    last_used_at_millis: row.lastUsedAt?.getTime() ?? null,
    device_type: row.deviceType,
    backed_up: row.backedUp,
  };
}

/** Oldest first. */
export function listPasskeys(db: DbOrTx, t: Tenancy, userId: string): Promise<PasskeyRow[]> {
  return db
    .select()
    .from(passkeys)
    .where(and(inTenancy(passkeys, t), eq(passkeys.userId, userId)))
    .orderBy(asc(passkeys.createdAt), asc(passkeys.id));
}

/** USER_ID_DOES_NOT_EXIST unless the user is in this project; then their passkeys. */
export async function listUserPasskeys(db: DbOrTx, t: Tenancy, userId: string): Promise<PasskeyRow[]> {
  await requireUser(db, t, userId);
  return listPasskeys(db, t, userId);
}

/** The user's passkey, or 404: another user's or project's passkey is simply not found. */
async function requirePasskey(db: DbOrTx, t: Tenancy, userId: string, passkeyId: string): Promise<PasskeyRow> {
  const [row] = await db
    .select()
    .from(passkeys)
    .where(and(inTenancy(passkeys, t), eq(passkeys.userId, userId), eq(passkeys.id, passkeyId)));
  if (!row) throw new StatusError(404, "Passkey not found. Check the passkey id and the user it belongs to.");
  return row;
}

export function renamePasskey(db: Db, t: Tenancy, userId: string, passkeyId: string, displayName: string): Promise<PasskeyRow> {
  return db.transaction(async (tx) => {
    await requireUser(tx, t, userId);
    const passkey = await requirePasskey(tx, t, userId, passkeyId);
    const [row] = await tx
      .update(passkeys)
      .set({ displayName })
      .where(and(inTenancy(passkeys, t), eq(passkeys.id, passkey.id)))
      .returning();
    return row!;
  });
}

export function deletePasskey(db: Db, events: Events, t: Tenancy, userId: string, passkeyId: string): Promise<void> {
  return events.transaction(db, async (tx) => {
    await requireUser(tx, t, userId, true);
    const passkey = await requirePasskey(tx, t, userId, passkeyId);
    await tx.delete(passkeys).where(and(inTenancy(passkeys, t), eq(passkeys.id, passkey.id)));
    await syncPasskeyFlag(tx, t, userId);
  });
}

/** Removes every passkey of the user (PATCH /users/… with passkey_auth_enabled false); the caller clears the flag. */
export async function deleteAllPasskeys(tx: DbOrTx, t: Tenancy, userId: string): Promise<void> {
  await tx.delete(passkeys).where(and(inTenancy(passkeys, t), eq(passkeys.userId, userId)));
}

/** Sets `passkey_auth_enabled` to whether the user has a passkey now; the user's row must be locked by the caller. */
export async function syncPasskeyFlag(tx: EventTx, t: Tenancy, userId: string): Promise<void> {
  const [left] = await tx
    .select({ id: passkeys.id })
    .from(passkeys)
    .where(and(inTenancy(passkeys, t), eq(passkeys.userId, userId)))
    .limit(1);
  const enabled = left !== undefined;
  const changed = await tx
    .update(users)
    .set({ passkeyAuthEnabled: enabled })
    .where(and(inTenancy(users, t), eq(users.id, userId), eq(users.passkeyAuthEnabled, !enabled)))
    .returning({ id: users.id });
  // The server user's passkey_auth_enabled changed: a users write as any other (events/domain-events.ts).
  if (changed.length > 0) {
    await record(
      tx,
      { type: "user.sign_in_methods_changed", ...t, data: { id: userId } },
      { type: "user.updated", ...t, data: { id: userId } },
    );
  }
}
