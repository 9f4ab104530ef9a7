/** Internal API keys: the project keys an admin creates for servers and tools. */
import type { InternalApiKeyFirstViewJson, InternalApiKeyJson } from "./json.ts";

type KeyPart<Full extends boolean> = Full extends true ? string : { lastFour: string };

export interface InternalApiKeyBase<Full extends boolean> {
  readonly id: string;
  readonly description: string;
  readonly createdAt: Date;
  readonly expiresAt: Date | null;
  readonly manuallyRevokedAt: Date | null;
  readonly publishableClientKey: KeyPart<Full> | null;
  readonly secretServerKey: KeyPart<Full> | null;
  readonly superSecretAdminKey: KeyPart<Full> | null;
}

/** Returned once, at creation: the full key values. Store them now; they are never shown again. */
export type InternalApiKeyFirstView = InternalApiKeyBase<true>;

export interface InternalApiKey extends InternalApiKeyBase<false> {
  isValid(): boolean;
  whyInvalid(): "expired" | "manually-revoked" | null;
  /** Revokes every key of the set, for good. */
  revoke(): Promise<void>;
}

function dates(
  json: Pick<InternalApiKeyJson, "id" | "description" | "created_at_millis" | "expires_at_millis" | "manually_revoked_at_millis">,
) {
  return {
    id: json.id,
    description: json.description,
    createdAt: new Date(json.created_at_millis),
    expiresAt: json.expires_at_millis === undefined ? null : new Date(json.expires_at_millis),
    manuallyRevokedAt: json.manually_revoked_at_millis === undefined ? null : new Date(json.manually_revoked_at_millis),
  };
}

export function firstViewFromJson(json: InternalApiKeyFirstViewJson): InternalApiKeyFirstView {
  return {
    ...dates(json),
    publishableClientKey: json.publishable_client_key ?? null,
    secretServerKey: json.secret_server_key ?? null,
    superSecretAdminKey: json.super_secret_admin_key ?? null,
  };
}

export function internalApiKeyFromJson(
  json: InternalApiKeyJson,
  revoke: (id: string) => Promise<void>,
  now = () => Date.now(),
): InternalApiKey {
  const lastFour = (value: InternalApiKeyJson["publishable_client_key"]) => (value ? { lastFour: value.last_four } : null);
  const base = dates(json);
  const whyInvalid = () =>
    base.manuallyRevokedAt !== null ? "manually-revoked" : base.expiresAt !== null && base.expiresAt.getTime() <= now() ? "expired" : null;
  return {
    ...base,
    publishableClientKey: lastFour(json.publishable_client_key),
    secretServerKey: lastFour(json.secret_server_key),
    superSecretAdminKey: lastFour(json.super_secret_admin_key),
    whyInvalid,
    isValid: () => whyInvalid() === null,
    revoke: () => revoke(json.id),
  };
}
