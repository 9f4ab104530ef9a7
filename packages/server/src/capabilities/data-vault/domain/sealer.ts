/**
 * Envelope encryption's outer half: wrapping a value's own data key under a
 * key-encryption key the database never holds. The server's sealer derives
 * its key-encryption keys from the operator's secrets (local-sealer.ts); a
 * cloud KMS plugs in by implementing this interface (its wrap is the KMS's
 * Encrypt, its unwrap the KMS's Decrypt, `context` its encryption context).
 */

/** A data key as stored: wrapped, with the id of the key-encryption key that wrapped it. */
export interface WrappedKey {
  keyId: string;
  /** Opaque to everyone but the sealer that made it. */
  wrapped: string;
}

export interface Sealer {
  /** The key-encryption key new data keys are wrapped under. */
  readonly currentKeyId: string;
  /** Whether `keyId` can still be unwrapped (the current key, or one kept for a rotation). */
  canUnwrap(keyId: string): boolean;
  /** `context` is bound to the wrapped key: unwrapping under another context fails. */
  wrap(dataKey: Uint8Array, context: string): Promise<WrappedKey>;
  /** Throws when the key id is unknown or the wrapped key (or its context) was tampered with. */
  unwrap(key: WrappedKey, context: string): Promise<Uint8Array>;
}

/** Thrown by unwrap for a key-encryption key the sealer does not have: its secret left the list before a rotation finished. */
export class UnknownKeyEncryptionKeyError extends Error {
  constructor(readonly keyId: string) {
    super(`The data vault key-encryption key ${keyId} is not configured: add its secret back to LATCHKEY_DATA_VAULT_SECRETS.`);
    this.name = "UnknownKeyEncryptionKeyError";
  }
}
