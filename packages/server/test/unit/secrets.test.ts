/** Values sealed with the server secret (AES-256-GCM): only this secret and purpose open them, unaltered. */
import { describe, expect, it } from "vitest";
import { decryptWithSecret, encryptWithSecret } from "../../src/lib/secrets.ts";

const SECRET = "a".repeat(64);

describe("sealed values", () => {
  it("open with the same secret and purpose only", () => {
    const sealed = encryptWithSecret(SECRET, "purpose-a", "hello");
    expect(decryptWithSecret(SECRET, "purpose-a", sealed)).toBe("hello");
    expect(() => decryptWithSecret(SECRET, "purpose-b", sealed)).toThrow();
    expect(() => decryptWithSecret("b".repeat(64), "purpose-a", sealed)).toThrow();
  });

  it("refuse altered data and truncated authentication tags", () => {
    const [iv, tag, data] = encryptWithSecret(SECRET, "p", "hello world").split(".") as [string, string, string];
    const flipped = Buffer.from(data, "base64url");
    flipped[0]! ^= 1;
    expect(() => decryptWithSecret(SECRET, "p", [iv, tag, flipped.toString("base64url")].join("."))).toThrow();
    const short = Buffer.from(tag, "base64url").subarray(0, 4).toString("base64url");
    expect(() => decryptWithSecret(SECRET, "p", [iv, short, data].join("."))).toThrow(/Malformed/);
    expect(() => decryptWithSecret(SECRET, "p", "not.sealed")).toThrow();
  });
});
