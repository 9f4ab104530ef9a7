/**
 * The layout of a user or team API key (102 characters), which apps and
 * secret scanners recognise:
 *
 *   sk_ | 45-character secret | key id (32 hex) | user|team | flag | 574ck4u7h | CRC-32 (8 hex)
 *
 * `pk_` instead of `sk_` for a public key. The secret is lowercase Crockford
 * base32 (lib/secrets.ts); the flag digit is 1 for a self-hosted server's
 * key, plus 2 for a public one (a hosted cloud's keys have 0 and 2); the
 * checksum is the CRC-32 (as zlib computes it) of the UTF-8 of everything
 * before it. A string that does not parse, or whose checksum is wrong (a
 * typo), is no key: it is refused without reading the database.
 */
import type { ApiKeyType } from "@latchkey/shared";
import { randomCode } from "../../../lib/secrets.ts";

const MARKER = "574ck4u7h";
const SECRET_LENGTH = 45;
export const API_KEY_LENGTH = 3 + SECRET_LENGTH + 32 + 4 + 1 + MARKER.length + 8;

const LAYOUT = new RegExp(`^(sk|pk)_[0-9a-hjkmnp-tv-z]{${SECRET_LENGTH}}([0-9a-f]{32})(user|team)([0-3])${MARKER}([0-9a-f]{8})$`);

export interface ParsedApiKey {
  id: string;
  type: ApiKeyType;
  isPublic: boolean;
}

export function newApiKeyString(id: string, type: ApiKeyType, isPublic: boolean): string {
  const flag = 1 + (isPublic ? 2 : 0);
  const body = `${isPublic ? "pk" : "sk"}_${randomCode(SECRET_LENGTH)}${id.replaceAll("-", "")}${type}${flag}${MARKER}`;
  return body + checksum(body);
}

/** The key's id, kind and visibility, or null when `value` is not a well-formed key. */
export function parseApiKeyString(value: string): ParsedApiKey | null {
  if (value.length !== API_KEY_LENGTH) return null;
  const match = LAYOUT.exec(value);
  if (!match) return null;
  if (checksum(value.slice(0, -8)) !== match[5]) return null;
  const hex = match[2]!;
  return {
    id: `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`,
    type: match[3] as ApiKeyType,
    isPublic: match[1] === "pk",
  };
}

function checksum(text: string): string {
  return crc32Ascii(text).toString(16).padStart(8, "0");
}

/** crc32 of an ASCII string's bytes (a key's characters all are), read without copying it into a buffer. */
function crc32Ascii(text: string): number {
  let crc = 0xffffffff;
  for (let i = 0; i < text.length; i++) crc = TABLE[(crc ^ text.charCodeAt(i)) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/** CRC-32 (IEEE 802.3, reflected, as zlib's crc32), by table. */
const TABLE = Uint32Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

export function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}
