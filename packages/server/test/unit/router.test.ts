import { describe, expect, it } from "vitest";
import { StaticMemoRouter } from "../../src/http/router.ts";

describe("StaticMemoRouter", () => {
  function router() {
    const r = new StaticMemoRouter<string>();
    r.add("GET", "/api/v1/users/me", "me");
    r.add("GET", "/api/v1/users/:user_id", "user");
    r.add("POST", "/api/v1/auth/sessions/current/refresh", "refresh");
    r.add("DELETE", "/api/v1/auth/sessions/:session_id", "delete-session");
    return r;
  }
  const handlers = (result: ReturnType<StaticMemoRouter<string>["match"]>) => (result[0] as [string, unknown][]).map(([h]) => h);

  it("answers static paths the same on first and later matches", () => {
    const r = router();
    const first = r.match("GET", "/api/v1/users/me");
    // "/users/me" also matches "/users/:user_id"; only the first (more specific, registered first) is kept.
    expect(handlers(first)).toEqual(["me"]);
    expect(r.match("GET", "/api/v1/users/me")).toBe(first);
    expect(handlers(r.match("POST", "/api/v1/auth/sessions/current/refresh"))).toEqual(["refresh"]);
  });

  it("matches parameter paths through the trie, with their parameters", () => {
    const r = router();
    r.match("GET", "/api/v1/users/me");
    const result = r.match("GET", "/api/v1/users/abc");
    expect(handlers(result)).toEqual(["user"]);
    expect(JSON.stringify(result)).toContain("abc");
    expect(handlers(r.match("DELETE", "/api/v1/auth/sessions/s1"))).toEqual(["delete-session"]);
  });

  it("finds nothing for a static path asked with another method", () => {
    const r = router();
    expect(handlers(r.match("PUT", "/api/v1/users/me"))).toEqual([]);
    expect(handlers(r.match("PUT", "/api/v1/users/me"))).toEqual([]);
  });

  it("refuses routes added after the first match", () => {
    const r = router();
    r.match("GET", "/api/v1/users/me");
    expect(() => r.add("GET", "/api/v1/late", "late")).toThrow(/after the first request/);
  });
});
