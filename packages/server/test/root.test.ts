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
    expect(res.text.split("\n").slice(2)).toEqual(["Authentication: Server", "  Project: internal", "  User: None"]);
  });

  it("names the signed-in user's primary e-mail, indented under Authentication", async () => {
    const email = `root-${Date.now()}@example.com`;
    const created = await server.request("/users", {
      method: "POST",
      as: server.internal.server,
      body: { primary_email: email, primary_email_auth_enabled: true },
    });
    expect(created.status).toBe(201);
    const session = await server.request("/auth/sessions", {
      method: "POST",
      as: server.internal.server,
      body: { user_id: created.body.id },
    });
    const res = await server.request("/", {
      as: { ...server.internal.client, accessToken: session.body.access_token },
    });
    expect(res.text.split("\n").slice(2)).toEqual(["Authentication: Client", "  Project: internal", `  User: ${email}`]);
  });

  it("adds no Project or User line without authentication", async () => {
    const res = await server.request("/");
    expect(res.text.split("\n").slice(2)).toEqual(["Authentication: None"]);
  });

  it("answers an unsupported method with 405 plain text", async () => {
    const res = await server.request("/", { method: "DELETE" });
    expect(res.status).toBe(405);
    expect(res.text).toBe("Method not allowed");
  });
});
