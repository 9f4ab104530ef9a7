/**
 * Contact channels: a user's e-mail addresses. The primary one is
 * the user's primary e-mail, so every write here tells the caches that the
 * user changed.
 *
 * A write first locks the user's row, so one user's channel writes run one at
 * a time: the primary flag moves without two channels claiming it, and the
 * "already has this address" check sees a settled state. Between users
 * nothing is locked; the unique index on sign-in addresses decides who keeps
 * an address, and its violation becomes the catalogue's error.
 */
import { KnownErrors, StatusError, type CamelCaseKeys, type ContactChannelJson, type ServerContactChannelPatch } from "@latchkey/shared";
import { and, asc, desc, eq, ne, sql, type SQL } from "drizzle-orm";
import type { Db, DbOrTx } from "../../db/connect.ts";
import { inTenancy, type Tenancy } from "../../db/tenancy.ts";
import { record, type Events, type EventTx } from "../../events/transaction.ts";
import { isUniqueViolation, violatedConstraint } from "../../db/errors.ts";
import { contactChannels, users, type ContactChannelRow } from "../../db/schema/index.ts";
import type { ChannelVerificationData } from "./verification.ts";

export function channelView(row: ContactChannelRow): ContactChannelJson {
  return {
    id: row.id,
    is_primary: row.isPrimary,
    is_verified: row.isVerified,
    type: row.type,
    used_for_auth: row.usedForAuth,
    user_id: row.userId,
    value: row.value,
  };
}

/** The rows of one project's branch, in any table whose rows start with tenancyColumns() (db/schema/projects.ts). */
/** Whether the user is in this project's branch; `lock` takes the per-user write lock (their row, until the transaction ends). */
export async function userExists(db: DbOrTx, t: Tenancy, userId: string, lock = false): Promise<boolean> {
  const query = db
    .select({ id: users.id })
    .from(users)
    .where(and(inTenancy(users, t), eq(users.id, userId)));
  return (lock ? await query.for("update") : await query).length > 0;
}

/** Throws USER_ID_DOES_NOT_EXIST unless the user is in this project; `lock` takes the per-user write lock. */
export async function requireUser(db: DbOrTx, t: Tenancy, userId: string, lock = false): Promise<void> {
  if (!(await userExists(db, t, userId, lock))) throw new KnownErrors.UserIdDoesNotExist(userId);
}

/** Primary first, then oldest first. */
export function listChannels(db: DbOrTx, t: Tenancy, userId: string): Promise<ContactChannelRow[]> {
  return db
    .select()
    .from(contactChannels)
    .where(and(inTenancy(contactChannels, t), eq(contactChannels.userId, userId)))
    .orderBy(desc(contactChannels.isPrimary), asc(contactChannels.createdAt), asc(contactChannels.id));
}

/** The user's primary channel (their primary e-mail), or null when they have none. */
export async function findPrimaryChannel(db: DbOrTx, t: Tenancy, userId: string): Promise<ContactChannelRow | null> {
  const [row] = await db
    .select()
    .from(contactChannels)
    .where(and(inTenancy(contactChannels, t), eq(contactChannels.userId, userId), eq(contactChannels.isPrimary, true)));
  return row ?? null;
}

/**
 * USER_ID_DOES_NOT_EXIST unless the user is in this project, then the user's
 * channel or 404; `lock` takes the per-user write lock (in a transaction).
 */
export async function requireUserChannel(
  db: DbOrTx,
  t: Tenancy,
  userId: string,
  channelId: string,
  lock = false,
): Promise<ContactChannelRow> {
  await requireUser(db, t, userId, lock);
  return requireChannel(db, t, userId, channelId);
}

const CHANNEL_NOT_FOUND = "Contact channel not found. Check the contact channel id and the user it belongs to.";

/**
 * The user's channel, or `notFoundStatus` (404 unless said otherwise):
 * another user's or project's channel is simply not found.
 */
export async function requireChannel(
  db: DbOrTx,
  t: Tenancy,
  userId: string,
  channelId: string,
  notFoundStatus: 400 | 404 = 404,
): Promise<ContactChannelRow> {
  const [row] = await db
    .select()
    .from(contactChannels)
    .where(and(inTenancy(contactChannels, t), eq(contactChannels.userId, userId), eq(contactChannels.id, channelId)));
  if (!row) throw new StatusError(notFoundStatus, CHANNEL_NOT_FOUND);
  return row;
}

export interface NewChannel {
  value: string;
  usedForAuth: boolean;
  isPrimary: boolean;
  isVerified: boolean;
}

/** USER_ID_DOES_NOT_EXIST unless the user is in this project; then the new channel, with the user locked. */
export function createChannel(db: Db, events: Events, t: Tenancy, userId: string, input: NewChannel): Promise<ContactChannelRow> {
  return events.transaction(db, async (tx) => {
    await requireUser(tx, t, userId, true);
    await refuseOwnDuplicate(tx, t, userId, input.value, null);
    if (input.isPrimary) await demotePrimary(tx, t, userId, null);
    const [row] = await guarded(input.value, () =>
      tx
        .insert(contactChannels)
        .values({ ...t, userId, type: "email", ...input })
        .returning(),
    );
    await record(tx, { type: "contact_channel.created", ...t, data: { id: row!.id, user_id: userId } });
    return row!;
  });
}

export type ChannelPatch = CamelCaseKeys<ServerContactChannelPatch>;

/**
 * Finds the user's channel as requireUserChannel does, with the user locked,
 * and applies the patch. A new address is unverified unless the patch says
 * otherwise.
 */
export function updateChannel(
  db: Db,
  events: Events,
  t: Tenancy,
  userId: string,
  channelId: string,
  patch: ChannelPatch,
): Promise<ContactChannelRow> {
  return events.transaction(db, async (tx) => {
    const channel = await requireUserChannel(tx, t, userId, channelId, true);
    return applyChannelPatch(tx, t, channel, patch);
  });
}

async function applyChannelPatch(tx: EventTx, t: Tenancy, channel: ContactChannelRow, patch: ChannelPatch): Promise<ContactChannelRow> {
  const set: Partial<typeof contactChannels.$inferInsert> = {};
  if (patch.value !== undefined && patch.value !== channel.value) {
    await refuseOwnDuplicate(tx, t, channel.userId, patch.value, channel.id);
    set.value = patch.value;
    // Only the case changed: still the same mailbox, so still verified.
    if (patch.value.toLowerCase() !== channel.value.toLowerCase()) set.isVerified = false;
  }
  if (patch.isVerified !== undefined) set.isVerified = patch.isVerified;
  if (patch.usedForAuth !== undefined) set.usedForAuth = patch.usedForAuth;
  if (patch.isPrimary !== undefined) set.isPrimary = patch.isPrimary;
  if (Object.keys(set).length === 0) return channel;
  if (patch.isPrimary && !channel.isPrimary) await demotePrimary(tx, t, channel.userId, channel.id);
  const [row] = await guarded(patch.value ?? channel.value, () =>
    tx
      .update(contactChannels)
      .set(set)
      .where(and(inTenancy(contactChannels, t), eq(contactChannels.id, channel.id)))
      .returning(),
  );
  await record(tx, { type: "contact_channel.updated", ...t, data: { id: channel.id, user_id: channel.userId } });
  return row!;
}

/**
 * Finds the user's channel as requireUserChannel does, with the user locked,
 * and deletes it. An unknown channel is a 400 here (the request names nothing
 * to delete), as clients of the reference API expect.
 */
export function deleteChannel(db: Db, events: Events, t: Tenancy, userId: string, channelId: string): Promise<void> {
  return events.transaction(db, async (tx) => {
    await requireUser(tx, t, userId, true);
    const channel = await requireChannel(tx, t, userId, channelId, 400);
    await tx.delete(contactChannels).where(and(inTenancy(contactChannels, t), eq(contactChannels.id, channel.id)));
    await record(tx, { type: "contact_channel.deleted", ...t, data: { id: channel.id, user_id: channel.userId } });
  });
}

function holdsAddress(t: Tenancy, data: ChannelVerificationData): SQL {
  return and(
    inTenancy(contactChannels, t),
    eq(contactChannels.userId, data.user_id),
    eq(contactChannels.id, data.contact_channel_id),
    sql`lower(${contactChannels.value}) = lower(${data.email})`,
  )!;
}

const ADDRESS_CHANGED =
  "This verification code was sent to an e-mail address that has since been changed or removed. Request a new verification e-mail.";

/**
 * Marks the channel a verification code names verified, provided it still
 * holds the address the code was mailed to. Run inside useCode's apply: the
 * throw keeps the code unspent.
 */
export async function markChannelVerified(tx: EventTx, t: Tenancy, data: ChannelVerificationData): Promise<void> {
  const rows = await tx
    .update(contactChannels)
    .set({ isVerified: true })
    .where(holdsAddress(t, data))
    .returning({ id: contactChannels.id });
  if (rows.length === 0) throw new StatusError(400, ADDRESS_CHANGED);
  await record(tx, { type: "contact_channel.verified", ...t, data: { id: data.contact_channel_id, user_id: data.user_id } });
}

/** The same condition as markChannelVerified, without writing (for check-code). */
export async function assertChannelStillHolds(db: DbOrTx, t: Tenancy, data: ChannelVerificationData): Promise<void> {
  const rows = await db.select({ id: contactChannels.id }).from(contactChannels).where(holdsAddress(t, data));
  if (rows.length === 0) throw new StatusError(400, ADDRESS_CHANGED);
}

async function refuseOwnDuplicate(tx: DbOrTx, t: Tenancy, userId: string, value: string, exceptId: string | null): Promise<void> {
  const rows = await tx
    .select({ id: contactChannels.id })
    .from(contactChannels)
    .where(
      and(
        inTenancy(contactChannels, t),
        eq(contactChannels.userId, userId),
        eq(contactChannels.type, "email"),
        sql`lower(${contactChannels.value}) = lower(${value})`,
        exceptId === null ? undefined : ne(contactChannels.id, exceptId),
      ),
    );
  if (rows.length > 0) throw alreadyHasAddress();
}

async function demotePrimary(tx: DbOrTx, t: Tenancy, userId: string, exceptId: string | null): Promise<void> {
  await tx
    .update(contactChannels)
    .set({ isPrimary: false })
    .where(
      and(
        inTenancy(contactChannels, t),
        eq(contactChannels.userId, userId),
        eq(contactChannels.isPrimary, true),
        exceptId === null ? undefined : ne(contactChannels.id, exceptId),
      ),
    );
}

function alreadyHasAddress(): StatusError {
  return new StatusError(400, "This user already has a contact channel with this e-mail address.");
}

/** Runs a write, turning a unique-index violation into the error the caller should see. */
async function guarded<T>(value: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    switch (violatedConstraint(error)) {
      case "contact_channels_auth_unique":
        throw new KnownErrors.ContactChannelAlreadyUsedForAuthBySomeoneElse("email", value, false);
      case "contact_channels_user_value_unique":
        throw alreadyHasAddress();
      default:
        // The primary index, hit only when a write outside this module (a user
        // PATCH) changed the primary at the same moment.
        throw new StatusError(409, "The user's contact channels were changed at the same time. Try again.");
    }
  }
}
