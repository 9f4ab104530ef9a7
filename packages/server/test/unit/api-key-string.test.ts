/**
 * The user and team API key layout (capabilities/user-team-api-keys/domain/key-string.ts): what it
 * makes parses back to its id, kind and visibility; any one-character typo, a truncated key and a
 * string of another layout do not parse (so they are refused without a lookup).
 */
import { randomUUID } from "node:crypto";
import { crc32 as zlibCrc32 } from "node:zlib";
import { describe, expect, it } from "vitest";
import { API_KEY_LENGTH, crc32, newApiKeyString, parseApiKeyString } from "../../src/capabilities/user-team-api-keys/domain/key-string.ts";

describe("the API key string", () => {
  it("parses back to what made it", () => {
    const id = randomUUID();
    for (const [type, isPublic] of [
      ["user", false],
      ["user", true],
      ["team", false],
      ["team", true],
    ] as const) {
      const value = newApiKeyString(id, type, isPublic);
      expect(value).toHaveLength(API_KEY_LENGTH);
      expect(parseApiKeyString(value)).toEqual({ id, type, isPublic });
    }
  });

  it("refuses every one-character typo, a truncated key and other layouts", () => {
    const value = newApiKeyString(randomUUID(), "user", false);
    for (let i = 0; i < value.length; i++) {
      const swapped = value[i] === "0" ? "1" : "0";
      expect(parseApiKeyString(value.slice(0, i) + swapped + value.slice(i + 1)), `position ${i}`).toBeNull();
    }
    expect(parseApiKeyString(value.slice(0, -1))).toBeNull();
    expect(parseApiKeyString(value.toUpperCase())).toBeNull();
    expect(parseApiKeyString(`ssk_${"a".repeat(98)}`)).toBeNull();
  });

  it("checksums as zlib's CRC-32", () => {
    for (const text of ["", "a", "574ck4u7h", "sk_".repeat(40)]) expect(crc32(Buffer.from(text))).toBe(zlibCrc32(text));
  });
});
