/**
 * Creating, listing, reading and changing user and team API keys. Every
 * query keeps to the caller's tenancy; the owner (user or team) must be of
 * it too. Each write is announced (`api_key.created`, `api_key.updated` for
 * a new description, `api_key.revoked`), so every replica's cached copy
 * (check.ts) is dropped when it commits.
 */
import { KnownErrors, type ApiKeyType, type TeamApiKeyJson, type UserApiKeyJson } from "@latchkey/shared";
import { and, desc, eq } from "drizzle-orm";
import { randomUUID } from "node:crypto";
import type { Db, DbOrTx } from "../../../db/connect.ts";
import { teams, users } from "../../../db/schema/index.ts";
import { inTenancy, tenancyOf, type Tenancy } from "../../../db/tenancy.ts";
import { record, type EventTx } from "../../../events/transaction.ts";
import type { Services } from "../../../services.ts";
import { sha256Hex } from "../../../lib/secrets.ts";
import { userTeamApiKeys, type UserTeamApiKeyRow } from "../schema.ts";
import { newApiKeyString } from "./key-string.ts";

export type Owner = { type: "user"; userId: string } | { type: "team"; teamId: string };

export interface NewApiKey {
  description: string;
  /** null or 0: never. */
  expiresAtMillis: number | null;
  isPublic: boolean;
}

/** Creates a key for `owner`, which must be of the tenancy (else USER_NOT_FOUND or TEAM_NOT_FOUND). */
export async function createApiKey(
  services: Pick<Services, "db" | "events" | "clock">,
  t: Tenancy,
  owner: Owner,
  input: NewApiKey,
): Promise<{ row: UserTeamApiKeyRow; value: string }> {
  const id = randomUUID();
  const value = newApiKeyString(id, owner.type, input.isPublic);
  return services.events.transaction(services.db, async (tx) => {
    if (owner.type === "user" && !(await userExists(tx, t, owner.userId))) throw new KnownErrors.UserNotFound();
    if (owner.type === "team" && !(await teamExists(tx, t, owner.teamId))) throw new KnownErrors.TeamNotFound(owner.teamId);
    const [row] = await tx
      .insert(userTeamApiKeys)
      .values({
        id,
        ...tenancyOf(t),
        type: owner.type,
        userId: owner.type === "user" ? owner.userId : null,
        teamId: owner.type === "team" ? owner.teamId : null,
        description: input.description,
        isPublic: input.isPublic,
        valueDigest: sha256Hex(value),
        lastFour: value.slice(-4),
        createdAt: services.clock.date(),
        expiresAt: input.expiresAtMillis ? new Date(input.expiresAtMillis) : null,
      })
      .returning();
    await record(tx, { type: "api_key.created", ...t, data: ownerData(row!) });
    return { row: row!, value };
  });
}

/** The key and its owner, as the api_key.created and api_key.revoked events carry them. */
function ownerData(row: UserTeamApiKeyRow): { id: string; user_id: string } | { id: string; team_id: string } {
  return row.type === "user" ? { id: row.id, user_id: row.userId! } : { id: row.id, team_id: row.teamId! };
}

async function userExists(db: DbOrTx, t: Tenancy, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(inTenancy(users, t), eq(users.id, userId)))
    // Held until the key is written: a deletion of the owner waits, then takes the key along.
    .for("key share");
  return row !== undefined;
}

async function teamExists(db: DbOrTx, t: Tenancy, teamId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: teams.id })
    .from(teams)
    .where(and(inTenancy(teams, t), eq(teams.id, teamId)))
    .for("key share");
  return row !== undefined;
}

function ownedBy(owner: Owner) {
  return owner.type === "user" ? eq(userTeamApiKeys.userId, owner.userId) : eq(userTeamApiKeys.teamId, owner.teamId);
}

/** The owner's keys, newest first, whatever their state. */
export async function listApiKeys(db: DbOrTx, t: Tenancy, owner: Owner): Promise<UserTeamApiKeyRow[]> {
  return db
    .select()
    .from(userTeamApiKeys)
    .where(and(inTenancy(userTeamApiKeys, t), eq(userTeamApiKeys.type, owner.type), ownedBy(owner)))
    .orderBy(desc(userTeamApiKeys.createdAt), desc(userTeamApiKeys.id));
}

/** The key of this kind with this id in the tenancy, whatever its state; null when there is none. */
export async function findApiKey(db: DbOrTx, t: Tenancy, type: ApiKeyType, id: string): Promise<UserTeamApiKeyRow | null> {
  const [row] = await db
    .select()
    .from(userTeamApiKeys)
    .where(and(inTenancy(userTeamApiKeys, t), eq(userTeamApiKeys.id, id), eq(userTeamApiKeys.type, type)));
  return row ?? null;
}

/**
 * Changes the description, and revokes: the first revocation's time is kept
 * (a later one changes nothing and tells no one). Announced in the same
 * transaction, so once this returns no replica accepts a revoked key.
 */
export async function updateApiKey(
  db: Db,
  services: Pick<Services, "events" | "clock">,
  t: Tenancy,
  row: UserTeamApiKeyRow,
  change: { description?: string | undefined; revoked?: true | undefined },
  /** Runs in the change's transaction when it revokes the key (it was not revoked before). */
  onRevoked?: (tx: EventTx, row: UserTeamApiKeyRow) => Promise<void>,
): Promise<UserTeamApiKeyRow> {
  if (change.description === undefined && !(change.revoked === true && row.manuallyRevokedAt === null)) return row;
  return services.events.transaction(db, async (tx) => {
    // Locked and read again: of two revocations racing, the second finds the key revoked.
    const [current] = await tx
      .select({ manuallyRevokedAt: userTeamApiKeys.manuallyRevokedAt })
      .from(userTeamApiKeys)
      .where(and(inTenancy(userTeamApiKeys, t), eq(userTeamApiKeys.id, row.id)))
      .for("update");
    if (!current) throw new KnownErrors.ApiKeyNotFound();
    const revoke = change.revoked === true && current.manuallyRevokedAt === null;
    if (change.description === undefined && !revoke) return { ...row, manuallyRevokedAt: current.manuallyRevokedAt };
    const [updated] = await tx
      .update(userTeamApiKeys)
      .set({
        ...(change.description === undefined ? {} : { description: change.description }),
        ...(revoke ? { manuallyRevokedAt: services.clock.date() } : {}),
      })
      .where(and(inTenancy(userTeamApiKeys, t), eq(userTeamApiKeys.id, row.id)))
      .returning();
    if (change.description !== undefined) await record(tx, { type: "api_key.updated", ...t, data: { id: row.id } });
    if (revoke) {
      await record(tx, { type: "api_key.revoked", ...t, data: ownerData(updated!) });
      await onRevoked?.(tx, updated!);
    }
    return updated!;
  });
}

/** The read shape: the key only by its last four characters. */
export function apiKeyView(row: UserTeamApiKeyRow): UserApiKeyJson | TeamApiKeyJson {
  const common = {
    created_at_millis: row.createdAt.getTime(),
    description: row.description,
    ...(row.expiresAt ? { expires_at_millis: row.expiresAt.getTime() } : {}),
    id: row.id,
    is_public: row.isPublic,
    ...(row.manuallyRevokedAt ? { manually_revoked_at_millis: row.manuallyRevokedAt.getTime() } : {}),
    ...(row.lastUsedAt ? { last_used_at_millis: row.lastUsedAt.getTime() } : {}),
  };
  const value = { last_four: row.lastFour };
  return row.type === "user"
    ? { ...common, type: "user", user_id: row.userId!, value }
    : { ...common, type: "team", team_id: row.teamId!, value };
}
