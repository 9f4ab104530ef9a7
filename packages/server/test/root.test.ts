import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestServer, type TestServer } from "./harness.ts";

let server: TestServer;
beforeAll(async () => {
  server = await createTestServer();
});
afterAll(() => server.close());

describe("GET /api/v1", () => {
  it("answers unauthenticated with a welcome", async () => {
    const res = await server.request("/");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/plain");
    expect(res.text).toContain("Authentication: None");
    expect(res.headers.get("x-stack-request-id")).toBeTruthy();
    expect(res.headers.get("cache-control")).toBe("no-store, max-age=0");
  });

  it("names the access level, project and user when authenticated", async () => {
    const res = await server.request("/", { as: server.internal.server });
    expect(res.text).toContain("Authentication: Server");
    expect(res.text).toContain("Project: internal");
    expect(res.text).toContain("User: None");
  });

  it("answers an unsupported method with 405 plain text", async () => {
    const res = await server.request("/", { method: "DELETE" });
    expect(res.status).toBe(405);
    expect(res.text).toBe("Method not allowed");
  });
});
