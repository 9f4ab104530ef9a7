/**
 * AES-256-GCM as the vault uses it at rest, for data keys and for values:
 * a random 12-byte IV (AES_GCM_IV_BYTES), a full 16-byte tag, and associated data
 * that ties the ciphertext to where it is stored. Output: base64url of
 * iv ‖ ciphertext ‖ tag.
 */
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { AES_GCM_IV_BYTES } from "@latchkey/shared";

const TAG_BYTES = 16;

export function gcmSeal(key: Uint8Array, plaintext: Uint8Array, aad: string): string {
  const iv = randomBytes(AES_GCM_IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(Buffer.from(aad, "utf8"));
  const data = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return Buffer.concat([iv, data, cipher.getAuthTag()]).toString("base64url");
}

/** Throws when the key, the associated data or any byte differs from the seal's. */
export function gcmOpen(key: Uint8Array, sealed: string, aad: string): Uint8Array {
  const bytes = Buffer.from(sealed, "base64url");
  if (bytes.length < AES_GCM_IV_BYTES + TAG_BYTES) throw new Error("Malformed sealed data vault value");
  const iv = bytes.subarray(0, AES_GCM_IV_BYTES);
  const tag = bytes.subarray(bytes.length - TAG_BYTES);
  const decipher = createDecipheriv("aes-256-gcm", key, iv, { authTagLength: TAG_BYTES });
  decipher.setAAD(Buffer.from(aad, "utf8"));
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(bytes.subarray(AES_GCM_IV_BYTES, bytes.length - TAG_BYTES)), decipher.final()]);
}
