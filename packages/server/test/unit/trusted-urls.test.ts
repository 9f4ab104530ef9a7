/** Which callback URLs a project trusts (links in mailed codes may only point there). */
import { KnownErrors } from "@latchkey/shared";
import { describe, expect, it } from "vitest";
import { assertTrustedUrl, isTrustedUrl } from "../../src/domain/projects/trusted-urls.ts";

const config = (domains: string[], allow_localhost = false) => ({
  allow_localhost,
  domains: domains.map((domain) => ({ domain, handler_path: "/handler" })),
});

describe("trusted callback URLs", () => {
  it.each([
    ["https://app.example.com", "https://app.example.com/handler/verify?x=1", true],
    ["https://app.example.com", "https://app.example.com:443/cb", true],
    ["https://app.example.com", "http://app.example.com/cb", false],
    ["https://app.example.com", "https://app.example.com:8443/cb", false],
    ["https://app.example.com:8443", "https://app.example.com:8443/cb", true],
    ["https://app.example.com", "https://app.example.com.evil.com/cb", false],
    ["https://app.example.com", "https://evil.com/https://app.example.com", false],
    ["https://app.example.com", "https://user@app.example.com/cb", false],
    ["https://*.example.com", "https://shop.example.com/cb", true],
    ["https://*.example.com", "https://a.b.example.com/cb", false],
    ["https://*.example.com", "https://example.com/cb", false],
    ["https://*.example.com", "https://evil.com/.example.com", false],
    ["https://pr-*.example.com", "https://pr-12.example.com/cb", true],
    ["https://APP.example.com", "https://app.EXAMPLE.com/cb", true],
  ])("%s trusts %s: %s", (domain, url, trusted) => {
    expect(isTrustedUrl(config([domain]), url)).toBe(trusted);
  });

  it("trusts localhost only while the project allows it", () => {
    for (const url of ["http://localhost:3000/cb", "http://127.0.0.1:5173/cb", "http://[::1]/cb", "http://app.localhost/cb"]) {
      expect(isTrustedUrl(config([], true), url)).toBe(true);
      expect(isTrustedUrl(config([], false), url)).toBe(false);
    }
  });

  it("refuses what is not an http(s) URL", () => {
    for (const url of ["javascript:alert(1)", "ftp://localhost/x", "not a url", "//localhost/x"]) {
      expect(isTrustedUrl(config(["https://app.example.com"], true), url)).toBe(false);
    }
    expect(() => assertTrustedUrl(config([]), "https://evil.example.com/cb")).toThrow(KnownErrors.RedirectUrlNotWhitelisted);
  });
});
