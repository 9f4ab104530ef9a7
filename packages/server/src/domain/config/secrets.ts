/**
 * The secrets a config may hold — each OAuth provider's client secret and the
 * SMTP password — are stored sealed (encrypted with the server secret) and
 * shown masked. A write that sends back the mask an answer showed keeps the
 * stored secret.
 */
import { OAUTH_CLIENT_SECRET_MASK_PREFIX, isPlainObject, maskOAuthClientSecret, type ConfigOverride } from "@latchkey/shared";
import { isSealedClientSecret, openClientSecret, sealClientSecret } from "../projects/oauth-secrets.ts";

/** Whether the value at this key path is a secret. */
export function isSecretPath(path: readonly string[]): boolean {
  const at = path.join(".");
  return at === "emails.server.password" || (path.length === 5 && at.startsWith("auth.oauth.providers.") && path[4] === "clientSecret");
}

/** Each string at a secret path of `value` (found under `path`) replaced by `change(path, value)`. */
function mapSecretsIn(value: unknown, path: string[], change: (path: string[], secret: string) => string): unknown {
  if (typeof value === "string" && isSecretPath(path)) return change(path, value);
  if (!isPlainObject(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([key, child]) => [key, mapSecretsIn(child, [...path, key], change)]));
}

export function mapSecrets(override: ConfigOverride, change: (path: string[], secret: string) => string): ConfigOverride {
  return Object.fromEntries(Object.entries(override).map(([key, value]) => [key, mapSecretsIn(value, key.split("."), change)]));
}

/** The secret at `path` of a (rendered) document, as stored. */
function storedAt(doc: unknown, path: readonly string[]): string | undefined {
  let cursor = doc;
  for (const segment of path) cursor = isPlainObject(cursor) ? cursor[segment] : undefined;
  return typeof cursor === "string" ? cursor : undefined;
}

/**
 * The override ready to store: each secret sealed, or, when it is the mask
 * of the secret `current` (the rendered config before the write) holds at
 * that path, that stored secret. Already sealed values are kept.
 */
export function sealSecrets(serverSecret: string, override: ConfigOverride, current: unknown): ConfigOverride {
  return mapSecrets(override, (path, secret) => {
    if (isSealedClientSecret(secret)) return secret;
    const before = storedAt(current, path);
    if (
      before !== undefined &&
      secret.startsWith(OAUTH_CLIENT_SECRET_MASK_PREFIX) &&
      secret === maskOAuthClientSecret(openClientSecret(serverSecret, before))
    )
      return before;
    return sealClientSecret(serverSecret, secret);
  });
}

/** The document as answers show it: each secret masked. */
export function maskSecrets<T>(serverSecret: string, doc: T): T {
  return mapSecretsIn(doc, [], (_, secret) => maskOAuthClientSecret(openClientSecret(serverSecret, secret))) as T;
}

export function maskOverrideSecrets(serverSecret: string, override: ConfigOverride): ConfigOverride {
  return mapSecrets(override, (_, secret) => maskOAuthClientSecret(openClientSecret(serverSecret, secret)));
}
