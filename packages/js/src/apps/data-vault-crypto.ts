/**
 * The data vault's client-side encryption, with WebCrypto
 * only, so it runs in Node, browsers and edge runtimes alike. The app's
 * secret and the key never leave the SDK: the server gets
 * - hashed_key: PBKDF2 of a key derived from (key, secret), so the same key
 *   under another secret is another hashed key (a wrong secret finds nothing);
 * - encrypted_value: `01 00` ‖ salt ‖ IV ‖ AES-256-GCM(value), the AES key
 *   derived by HKDF from that same (key, secret) key and the salt.
 * The byte layout, labels and iteration count are the wire format: values
 * written by other SDKs for this API read back here, and the other way round.
 */
import {
  AES_GCM_IV_BYTES,
  DATA_VAULT_DECRYPTION_FAILED_MESSAGE,
  DATA_VAULT_KEY_DERIVATION_ITERATIONS,
  ENCRYPTION_SALT_BYTES,
} from "@latchkey/shared/constants";

const VERSION = [0x01, 0x00] as const;
const KEY_BYTES = 32;
const utf8 = new TextEncoder();

/** Standard base64 with padding. */
export function toBase64(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  return Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
}

/** The salt of an iterated hash: a label, bound to the secret. */
function iteratedHashSalt(label: string, secret: string): Uint8Array<ArrayBuffer> {
  return utf8.encode(JSON.stringify(["stack-crypto-helper-iterated-hash", label, "", toBase64(utf8.encode(secret))]));
}

async function pbkdf2(
  password: Uint8Array<ArrayBuffer>,
  salt: Uint8Array<ArrayBuffer>,
  iterations: number,
): Promise<Uint8Array<ArrayBuffer>> {
  const base = await crypto.subtle.importKey("raw", password, "PBKDF2", false, ["deriveBits"]);
  return new Uint8Array(await crypto.subtle.deriveBits({ name: "PBKDF2", hash: "SHA-256", salt, iterations }, base, KEY_BYTES * 8));
}

/** A key's own key under a secret (PBKDF2, DATA_VAULT_KEY_DERIVATION_ITERATIONS rounds): the slow step, done once per call. */
export type DataVaultKeyMaterial = { readonly k: Uint8Array<ArrayBuffer>; readonly secret: string };

export async function dataVaultKeyMaterial(key: string, secret: string): Promise<DataVaultKeyMaterial> {
  const salt = iteratedHashSalt("stack-data-vault-client-side-encryption-value-encryption-key-hash", secret);
  return { k: await pbkdf2(utf8.encode(key), salt, DATA_VAULT_KEY_DERIVATION_ITERATIONS), secret };
}

/** What the server stores the value under: 44 base64 characters. */
export async function hashDataVaultKey(material: DataVaultKeyMaterial): Promise<string> {
  const salt = iteratedHashSalt("stack-data-vault-client-side-encryption-key-hash", material.secret);
  return toBase64(await pbkdf2(material.k, salt, 1));
}

async function valueKey(k: Uint8Array<ArrayBuffer>, salt: Uint8Array<ArrayBuffer>, usage: "encrypt" | "decrypt"): Promise<CryptoKey> {
  const info = utf8.encode(
    JSON.stringify([
      "stack-crypto-helper-derived-symmetric-key",
      "stack-data-vault-client-side-encryption-value-encryption-value-encryption",
      "binary-key",
      toBase64(salt),
    ]),
  );
  const base = await crypto.subtle.importKey("raw", k, "HKDF", false, ["deriveKey"]);
  return crypto.subtle.deriveKey({ name: "HKDF", hash: "SHA-256", salt, info }, base, { name: "AES-GCM", length: 256 }, false, [usage]);
}

export async function encryptDataVaultValue(material: DataVaultKeyMaterial, value: string): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(ENCRYPTION_SALT_BYTES));
  const iv = crypto.getRandomValues(new Uint8Array(AES_GCM_IV_BYTES));
  const aes = await valueKey(material.k, salt, "encrypt");
  const sealed = new Uint8Array(await crypto.subtle.encrypt({ name: "AES-GCM", iv }, aes, utf8.encode(value)));
  const out = new Uint8Array(VERSION.length + salt.length + iv.length + sealed.length);
  out.set(VERSION, 0);
  out.set(salt, VERSION.length);
  out.set(iv, VERSION.length + salt.length);
  out.set(sealed, VERSION.length + salt.length + iv.length);
  return toBase64(out);
}

/**
 * Throws DATA_VAULT_DECRYPTION_FAILED_MESSAGE when GCM refuses the value (another secret or key,
 * or bytes changed), and a plain assertion when the value is not of this format at all.
 */
export async function decryptDataVaultValue(material: DataVaultKeyMaterial, encrypted: string): Promise<string> {
  const bytes = fromBase64(encrypted);
  if (bytes[0] !== VERSION[0] || bytes[1] !== VERSION[1]) {
    throw new Error(`Data vault value has an unknown format version (expected bytes ${VERSION.join(" ")}).`);
  }
  const saltEnd = VERSION.length + ENCRYPTION_SALT_BYTES;
  const ivEnd = saltEnd + AES_GCM_IV_BYTES;
  const aes = await valueKey(material.k, bytes.slice(VERSION.length, saltEnd), "decrypt");
  let plain: ArrayBuffer;
  try {
    plain = await crypto.subtle.decrypt({ name: "AES-GCM", iv: bytes.slice(saltEnd, ivEnd) }, aes, bytes.slice(ivEnd));
  } catch (cause) {
    throw new Error(DATA_VAULT_DECRYPTION_FAILED_MESSAGE, { cause });
  }
  return new TextDecoder().decode(plain);
}
