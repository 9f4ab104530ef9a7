/**
 * Standard OAuth providers' client secrets are kept encrypted inside the
 * project's config document. A sealed value carries a prefix, so a document
 * written before encryption (plaintext secrets) is told apart and sealed at
 * start-up, and sealing twice is a no-op.
 */
import { OAUTH_CLIENT_SECRET_MASK_PREFIX, maskOAuthClientSecret } from "@latchkey/shared";
import { eq } from "drizzle-orm";
import type { Db } from "../../db/connect.ts";
import { projects } from "../../db/schema/index.ts";
import { decryptWithSecret, encryptWithSecret } from "../../lib/secrets.ts";
import type { OAuthProviderConfig, ProjectConfig } from "./config.ts";

const PURPOSE = "oauth-client-secret";
const SEALED_PREFIX = "sealed:v1:";

export function isSealedClientSecret(value: string): boolean {
  return value.startsWith(SEALED_PREFIX);
}

export function sealClientSecret(serverSecret: string, plaintext: string): string {
  return SEALED_PREFIX + encryptWithSecret(serverSecret, PURPOSE, plaintext);
}

/** The provider's secret in clear; a value not (yet) sealed is returned as stored. */
export function openClientSecret(serverSecret: string, stored: string): string {
  return isSealedClientSecret(stored) ? decryptWithSecret(serverSecret, PURPOSE, stored.slice(SEALED_PREFIX.length)) : stored;
}

/**
 * The providers an admin sent, ready to store: new secrets sealed; a standard
 * provider that already had a secret keeps it when the admin omits
 * client_secret or sends back the masked value the admin view showed.
 */
export function sealProviderSecrets(
  serverSecret: string,
  previous: readonly OAuthProviderConfig[],
  next: readonly OAuthProviderConfig[],
): OAuthProviderConfig[] {
  return next.map((entry) => {
    // A shared entry's secret is unused, but is kept sealed all the same.
    if (entry.type !== "standard")
      return entry.client_secret === undefined ? entry : { ...entry, client_secret: sealClientSecret(serverSecret, entry.client_secret) };
    const before = previous.find((p) => p.id === entry.id && p.type === "standard" && p.client_secret);
    const storedBefore = before?.client_secret;
    if (storedBefore !== undefined) {
      const keep =
        entry.client_secret === undefined ||
        (entry.client_secret.startsWith(OAUTH_CLIENT_SECRET_MASK_PREFIX) &&
          entry.client_secret === maskOAuthClientSecret(openClientSecret(serverSecret, storedBefore)));
      if (keep) return { ...entry, client_secret: sealedOrSeal(serverSecret, storedBefore) };
    }
    if (entry.client_secret === undefined) return entry;
    return { ...entry, client_secret: sealClientSecret(serverSecret, entry.client_secret) };
  });
}

function sealedOrSeal(serverSecret: string, value: string): string {
  return isSealedClientSecret(value) ? value : sealClientSecret(serverSecret, value);
}

/** Whether a standard provider of the patch is left without a secret (none sent and none stored). */
export function missingClientSecret(providers: readonly OAuthProviderConfig[]): OAuthProviderConfig | undefined {
  return providers.find((p) => p.type === "standard" && !p.client_secret);
}

/** The providers as the admin view shows them: each secret masked. */
export function maskedProviders(serverSecret: string, providers: readonly OAuthProviderConfig[]): OAuthProviderConfig[] {
  return providers.map((p) =>
    p.client_secret === undefined ? p : { ...p, client_secret: maskOAuthClientSecret(openClientSecret(serverSecret, p.client_secret)) },
  );
}

/**
 * Projects written before secrets were encrypted hold them in clear: seal
 * each at start-up. Each row is rewritten only if its config is still the one
 * read, so replicas starting together cannot undo each other's or an admin's write.
 */
export async function sealLegacyOAuthClientSecrets(db: Db, serverSecret: string): Promise<number> {
  const rows = await db.select({ id: projects.id, config: projects.config }).from(projects);
  let sealed = 0;
  for (const row of rows) {
    const config = row.config as ProjectConfig;
    const providers = config.oauth_providers ?? [];
    if (!providers.some((p) => p.client_secret !== undefined && !isSealedClientSecret(p.client_secret))) continue;
    const next: ProjectConfig = {
      ...config,
      oauth_providers: providers.map((p) =>
        p.client_secret === undefined ? p : { ...p, client_secret: sealedOrSeal(serverSecret, p.client_secret) },
      ),
    };
    await db.transaction(async (tx) => {
      const [current] = await tx.select({ config: projects.config }).from(projects).where(eq(projects.id, row.id)).for("update");
      if (!current || JSON.stringify(current.config) !== JSON.stringify(config)) return;
      await tx.update(projects).set({ config: next }).where(eq(projects.id, row.id));
      sealed++;
    });
  }
  return sealed;
}
