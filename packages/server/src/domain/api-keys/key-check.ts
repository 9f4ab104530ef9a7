/** Project key checks on the request path, served from the cache when possible. */
import { and, eq, isNull } from "drizzle-orm";
import { projectApiKeys } from "../../db/schema/index.ts";
import { sha256Hex } from "../../lib/secrets.ts";
import type { Services } from "../../services.ts";
import type { ProjectKeyKind } from "./project-keys.ts";

const HASH_COLUMN = {
  publishable_client_key: projectApiKeys.publishableClientKeyHash,
  secret_server_key: projectApiKeys.secretServerKeyHash,
  super_secret_admin_key: projectApiKeys.superSecretAdminKeyHash,
} as const;

/**
 * Whether `key` is a live key of this kind for the project. The lookup is by
 * digest, so timing reveals nothing about how much of a key was right; only
 * live keys are cached, and revocation drops them on every replica.
 */
export async function checkProjectKey(
  services: Services,
  projectId: string,
  kind: ProjectKeyKind,
  key: string,
): Promise<boolean> {
  if (key.length === 0 || key.length > 200) return false;
  const digest = sha256Hex(key);
  const entry = await services.caches.load(services.caches.projectKeys, `${projectId}:${kind}:${digest}`, async () => {
    const rows = await services.db
      .select({ expiresAt: projectApiKeys.expiresAt })
      .from(projectApiKeys)
      .where(
        and(
          eq(projectApiKeys.projectId, projectId),
          eq(HASH_COLUMN[kind], digest),
          isNull(projectApiKeys.manuallyRevokedAt),
        ),
      )
      .limit(1);
    return rows[0] ? { projectId, expiresAt: rows[0].expiresAt } : null;
  });
  return entry !== null && (entry.expiresAt === null || entry.expiresAt.getTime() > Date.now());
}

/** After creating, revoking or editing keys of a project. */
export function projectKeysChanged(services: Services, projectId: string): Promise<void> {
  return services.bus.publish(services.db, { t: "project-keys", id: projectId });
}
