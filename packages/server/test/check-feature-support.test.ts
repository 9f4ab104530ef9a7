import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestServer, type TestServer } from "./harness.ts";

let server: TestServer;
beforeAll(async () => {
  server = await createTestServer();
});
afterAll(() => server.close());

const SUFFIX = " is not yet supported. Please reach out to the operator of this Latchkey server for more information.";

describe("POST /check-feature-support", () => {
  it("names the feature the client asks about, in plain text", async () => {
    const res = await server.request("/check-feature-support", {
      method: "POST",
      as: server.internal.client,
      body: { feature_name: "Sign-in with a magic wand", extra: { from: "a newer client" } },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/plain");
    expect(res.text).toBe(`Sign-in with a magic wand${SUFFIX}`);
  });

  it("answers without any authentication, and says 'This feature' when none is named", async () => {
    const res = await server.request("/check-feature-support", { method: "POST", body: {} });
    expect(res.status).toBe(200);
    expect(res.text).toBe(`This feature${SUFFIX}`);
    const empty = await server.request("/check-feature-support", { method: "POST" });
    expect(empty.status).toBe(200);
    expect(empty.text).toBe(`This feature${SUFFIX}`);
  });

  it("answers server and admin access alike", async () => {
    for (const as of [server.internal.server, server.internal.admin]) {
      const res = await server.request("/check-feature-support", { method: "POST", as, body: { feature_name: "X" } });
      expect(res.status).toBe(200);
      expect(res.text).toBe(`X${SUFFIX}`);
    }
  });

  it("refuses a feature name that is not a string, and other methods", async () => {
    const bad = await server.request("/check-feature-support", { method: "POST", body: { feature_name: 42 } });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe("SCHEMA_ERROR");
    const get = await server.request("/check-feature-support");
    expect(get.status).toBe(405);
  });
});
