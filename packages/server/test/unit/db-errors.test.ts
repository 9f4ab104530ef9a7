/** Which failures count as the database being unavailable (answered 503, and a GET retried). */
import { describe, expect, it } from "vitest";
import { isDatabaseUnavailable } from "../../src/db/errors.ts";

/** A socket's error as postgres.js rejects a query with it: the query is named on it. */
function queryError(code: string): Error {
  return Object.assign(new Error(`connect ${code} 127.0.0.1:5432`), { code, query: "select 1" });
}

describe("isDatabaseUnavailable", () => {
  it("recognises lost and refused connections, under Drizzle's wrapper too", () => {
    expect(isDatabaseUnavailable(queryError("ECONNREFUSED"))).toBe(true);
    expect(isDatabaseUnavailable(new Error("Failed query", { cause: queryError("ECONNRESET") }))).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error("write CONNECTION_CLOSED"), { code: "CONNECTION_CLOSED" }))).toBe(true);
    const terminated = Object.assign(new Error("terminating connection due to administrator command"), {
      code: "57P01",
      severity: "FATAL",
    });
    expect(isDatabaseUnavailable(new Error("Failed query", { cause: terminated }))).toBe(true);
  });

  it("leaves other services' unreachable sockets and the database's other errors alone", () => {
    // fetch() to an OAuth provider or a webhook endpoint fails with the same socket codes, named on no query.
    const fetchFailed = new TypeError("fetch failed", {
      cause: Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }),
    });
    expect(isDatabaseUnavailable(fetchFailed)).toBe(false);
    expect(isDatabaseUnavailable(Object.assign(new Error("duplicate key"), { code: "23505", severity: "ERROR" }))).toBe(false);
    expect(isDatabaseUnavailable(new Error("plain"))).toBe(false);
  });
});
