/**
 * Standard OAuth providers' client secrets (and the other secrets of a
 * config, domain/config/secrets.ts) are kept encrypted in the stored config.
 * A sealed value carries a prefix, so a document written before encryption
 * (plaintext secrets) is told apart and sealed when it is moved into the
 * overrides (domain/config/legacy-migration.ts), and sealing twice is a no-op.
 */
import { OAUTH_CLIENT_SECRET_MASK_PREFIX, maskOAuthClientSecret } from "@latchkey/shared";
import { decryptWithSecret, encryptWithSecret } from "../../lib/secrets.ts";
import type { OAuthProviderConfig } from "./config.ts";

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
