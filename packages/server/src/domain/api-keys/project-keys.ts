/**
 * Internal API keys (see @latchkey/shared api/api-keys.ts): sets of up to
 * three project keys. Only digests are stored; the full values are returned
 * once, at creation.
 */
import type { InternalApiKeyJson } from "@latchkey/shared";
import { and, desc, eq, isNull } from "drizzle-orm";
import type { Db, DbOrTx } from "../../db/connect.ts";
import { record, type Events } from "../../events/transaction.ts";
import { projectApiKeys, type ProjectKeyRow } from "../../db/schema/index.ts";
import { randomCode, sha256Hex } from "../../lib/secrets.ts";

export type ProjectKeyKind = "publishable_client_key" | "secret_server_key" | "super_secret_admin_key";

const PREFIX: Record<ProjectKeyKind, string> = {
  publishable_client_key: "pck_",
  secret_server_key: "ssk_",
  super_secret_admin_key: "sak_",
};

const HASH_COLUMN = {
  publishable_client_key: projectApiKeys.publishableClientKeyHash,
  secret_server_key: projectApiKeys.secretServerKeyHash,
  super_secret_admin_key: projectApiKeys.superSecretAdminKeyHash,
} as const;

export function newProjectKey(kind: ProjectKeyKind): string {
  return PREFIX[kind] + randomCode(45);
}

export interface CreateKeySetInput {
  projectId: string;
  description: string;
  expiresAt: Date | null;
  /** Explicit values (seeded keys); otherwise fresh random keys. */
  values: Partial<Record<ProjectKeyKind, string>>;
}

export async function createKeySet(db: DbOrTx, input: CreateKeySetInput) {
  const { publishable_client_key: pck, secret_server_key: ssk, super_secret_admin_key: sak } = input.values;
  const [row] = await db
    .insert(projectApiKeys)
    .values({
      projectId: input.projectId,
      description: input.description,
      expiresAt: input.expiresAt,
      publishableClientKeyHash: pck ? sha256Hex(pck) : null,
      publishableClientKeyLastFour: pck ? pck.slice(-4) : null,
      secretServerKeyHash: ssk ? sha256Hex(ssk) : null,
      secretServerKeyLastFour: ssk ? ssk.slice(-4) : null,
      superSecretAdminKeyHash: sak ? sha256Hex(sak) : null,
      superSecretAdminKeyLastFour: sak ? sak.slice(-4) : null,
    })
    .returning();
  return row!;
}

/**
 * The unrevoked key of this kind whose digest is `digest`, with its expiry.
 * The lookup is by digest, so timing reveals nothing about how much of a key
 * was right.
 */
export async function findLiveKey(
  db: DbOrTx,
  projectId: string,
  kind: ProjectKeyKind,
  digest: string,
): Promise<{ projectId: string; expiresAt: Date | null } | null> {
  const [row] = await db
    .select({ expiresAt: projectApiKeys.expiresAt })
    .from(projectApiKeys)
    .where(and(eq(projectApiKeys.projectId, projectId), eq(HASH_COLUMN[kind], digest), isNull(projectApiKeys.manuallyRevokedAt)))
    .limit(1);
  return row ? { projectId, expiresAt: row.expiresAt } : null;
}

export function isUnexpired(key: { expiresAt: Date | null } | null, now: number): boolean {
  return key !== null && (key.expiresAt === null || key.expiresAt.getTime() > now);
}

/** Whether `key` is a live key of this kind for the project (uncached: start-up and CLI). */
export async function isValidProjectKey(db: DbOrTx, projectId: string, kind: ProjectKeyKind, key: string, now: Date): Promise<boolean> {
  return isUnexpired(await findLiveKey(db, projectId, kind, sha256Hex(key)), now.getTime());
}

export async function listKeySets(db: DbOrTx, projectId: string) {
  return db
    .select()
    .from(projectApiKeys)
    .where(eq(projectApiKeys.projectId, projectId))
    .orderBy(desc(projectApiKeys.createdAt), desc(projectApiKeys.id));
}

/** The project's key set with this id, revoked or not; null when the project has none such. */
export async function findKeySet(db: DbOrTx, projectId: string, id: string): Promise<ProjectKeyRow | null> {
  const [row] = await db
    .select()
    .from(projectApiKeys)
    .where(and(eq(projectApiKeys.projectId, projectId), eq(projectApiKeys.id, id)));
  return row ?? null;
}

export async function describeKeySet(db: DbOrTx, projectId: string, id: string, description: string): Promise<void> {
  await db
    .update(projectApiKeys)
    .set({ description })
    .where(and(eq(projectApiKeys.projectId, projectId), eq(projectApiKeys.id, id)));
}

/** Revoked keys are refused by every replica once this commits (the caches drop the project's keys). */
export async function revokeKeySet(db: Db, events: Events, projectId: string, id: string, now: Date) {
  await events.transaction(db, async (tx) => {
    await tx
      .update(projectApiKeys)
      .set({ manuallyRevokedAt: now })
      .where(and(eq(projectApiKeys.projectId, projectId), eq(projectApiKeys.id, id), isNull(projectApiKeys.manuallyRevokedAt)));
    await record(tx, { type: "project_keys.updated", projectId, branchId: null, data: { id: projectId } });
  });
}

/** The read shape: each key only as its last four characters. */
export function keySetView(row: ProjectKeyRow): InternalApiKeyJson {
  return {
    created_at_millis: row.createdAt.getTime(),
    description: row.description,
    ...(row.expiresAt ? { expires_at_millis: row.expiresAt.getTime() } : {}),
    id: row.id,
    ...(row.manuallyRevokedAt ? { manually_revoked_at_millis: row.manuallyRevokedAt.getTime() } : {}),
    ...(row.publishableClientKeyLastFour ? { publishable_client_key: { last_four: row.publishableClientKeyLastFour } } : {}),
    ...(row.secretServerKeyLastFour ? { secret_server_key: { last_four: row.secretServerKeyLastFour } } : {}),
    ...(row.superSecretAdminKeyLastFour ? { super_secret_admin_key: { last_four: row.superSecretAdminKeyLastFour } } : {}),
  };
}
