import { describe, expect, it } from "vitest";
import { accessTokenExpiresAt, decodeAccessToken } from "../../src/session/access-token.ts";
import { makeAccessToken } from "./helpers.ts";

describe("decodeAccessToken", () => {
  it("reads the payload of a JWT-shaped token, including UTF-8 claims", () => {
    const token = makeAccessToken(1_700_000_000_000, { name: "Zoë ✓", email: "z@example.com" });
    expect(decodeAccessToken(token)).toMatchObject({ sub: "user-1", exp: 1_700_000_000, name: "Zoë ✓", email: "z@example.com" });
  });

  it.each([
    ["no payload", "justone"],
    ["payload not base64 JSON", "a.!!!notjson.c"],
    ["payload without exp", `h.${Buffer.from('{"sub":"u"}').toString("base64url")}.s`],
    ["exp not a number", `h.${Buffer.from('{"exp":"soon"}').toString("base64url")}.s`],
    ["payload JSON null", `h.${Buffer.from("null").toString("base64url")}.s`],
  ])("returns null for %s", (_name, token) => {
    expect(decodeAccessToken(token)).toBeNull();
  });
});

describe("accessTokenExpiresAt", () => {
  it("is exp in milliseconds", () => {
    expect(accessTokenExpiresAt(makeAccessToken(1_700_000_123_000))).toBe(1_700_000_123_000);
  });

  it("is 0 (already expired) when the token cannot be read", () => {
    expect(accessTokenExpiresAt("garbage")).toBe(0);
  });
});
