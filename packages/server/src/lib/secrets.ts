/**
 * Random tokens, digests and constant-time comparison. Every code, refresh
 * token and key is 45 characters of lowercase Crockford base32:
 * 225 bits of entropy, so an unsalted SHA-256 digest is a safe way to store it,
 * and looking secrets up by digest leaks nothing through timing.
 */
import { createCipheriv, createDecipheriv, hash, hkdfSync, randomBytes } from "node:crypto";

const CROCKFORD = "0123456789abcdefghjkmnpqrstvwxyz";

export function randomCode(length = 45): string {
  // 32 symbols = 5 bits; one random byte per symbol, masked, keeps it unbiased.
  const bytes = randomBytes(length);
  let out = "";
  for (let i = 0; i < length; i++) out += CROCKFORD[bytes[i]! & 31];
  return out;
}

export function sha256Hex(value: string): string {
  // One-shot: no Hash object per call (this runs on every key check).
  return hash("sha256", value, "hex");
}

/** AES-256-GCM with a key derived from the server secret; output is base64url `iv.tag.data`. */
export function encryptWithSecret(serverSecret: string, purpose: string, plaintext: string): string {
  const key = deriveKey(serverSecret, purpose);
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const data = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return [iv, cipher.getAuthTag(), data].map((b) => b.toString("base64url")).join(".");
}

export function decryptWithSecret(serverSecret: string, purpose: string, sealed: string): string {
  const [iv, tag, data] = sealed.split(".").map((p) => Buffer.from(p, "base64url"));
  // A full 16-byte tag only: GCM would accept a truncated one, which is far easier to forge.
  if (!iv || !tag || !data || iv.length !== 12 || tag.length !== 16) throw new Error("Malformed encrypted value");
  const decipher = createDecipheriv("aes-256-gcm", deriveKey(serverSecret, purpose), iv, { authTagLength: 16 });
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(data), decipher.final()]).toString("utf8");
}

function deriveKey(serverSecret: string, purpose: string): Buffer {
  return Buffer.from(hkdfSync("sha256", serverSecret, "latchkey", purpose, 32));
}
