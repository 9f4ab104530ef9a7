/**
 * Every answer carries `X-Content-Type-Options: nosniff` and `Referrer-Policy: no-referrer`, and, when the
 * public address (LATCHKEY_API_URL) is https, `Strict-Transport-Security`: successes and errors, answered at
 * once or after waiting, 404s, 405s, 500s, preflights, the operating endpoints and the Svix-compatible API;
 * through app.request() and through the Node adapter on a socket. Two apps share one instance's services,
 * one for each kind of address.
 */
import { defineEndpoint } from "@latchkey/shared";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createApp } from "../src/app.ts";
import { defineRoute } from "../src/http/route.ts";
import { createHttpServer } from "../src/process/listen.ts";
import { loadRoutes } from "../src/route-table.ts";
import { createProject, PASSWORD, signUpUser, type EndUser, type Project } from "./fixtures.ts";
import { authHeaders, createTestServer, type TestServer } from "./harness.ts";

const HSTS = "max-age=63072000; includeSubDomains";

type App = ReturnType<typeof createApp>;

let server: TestServer;
let project: Project;
let user: EndUser;
let apps: { http: App; https: App };

const boom = (path: string, handler: () => unknown) =>
  defineRoute(
    defineEndpoint({ method: "GET", path, summary: "Throws", tags: ["Test"], access: "public", response: z.never() }),
    handler as () => never,
  );

beforeAll(async () => {
  server = await createTestServer();
  project = await createProject(server);
  user = await signUpUser(server, project);
  const routes = [
    ...(await loadRoutes()),
    boom("/boom", () => {
      throw new Error("thrown at once");
    }),
    boom("/boom-later", async () => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      throw new Error("thrown after waiting");
    }),
  ];
  const { services } = server.instance;
  const withApiUrl = (apiUrl: string) => createApp({ ...services, config: { ...services.config, apiUrl } }, routes);
  apps = { http: withApiUrl("http://localhost:8102"), https: withApiUrl("https://auth.example.com") };
});
afterAll(() => server?.close());

/** Representative answers: [name, path, request init, expected status]. */
function answers(): [string, string, RequestInit, number][] {
  const client = authHeaders(project.client);
  const json = { ...client, "content-type": "application/json" };
  return [
    ["a success answered at once (a cached GET /users/me)", "/api/v1/users/me", { headers: authHeaders(user.as) }, 200],
    [
      "a success after waiting (a sign-in)",
      "/api/v1/auth/password/sign-in",
      { method: "POST", headers: json, body: JSON.stringify({ email: user.email, password: PASSWORD }) },
      200,
    ],
    ["a known error answered at once", "/api/v1/users/me", { headers: { ...client, "x-stack-access-token": "not-a-token" } }, 401],
    [
      "a known error after waiting",
      "/api/v1/auth/password/sign-in",
      { method: "POST", headers: json, body: JSON.stringify({ email: user.email, password: "not the password" }) },
      400,
    ],
    ["a 404 of the API", "/api/v1/no-such-endpoint", {}, 404],
    ["a 404 outside the API", "/no-such-page", {}, 404],
    ["a 405", "/api/v1/users/me", { method: "PUT", headers: authHeaders(user.as) }, 405],
    ["a 500 thrown at once", "/api/v1/boom", {}, 500],
    ["a 500 thrown after waiting", "/api/v1/boom-later", {}, 500],
    [
      "a CORS preflight",
      "/api/v1/users/me",
      { method: "OPTIONS", headers: { origin: "https://app.example.com", "access-control-request-method": "GET" } },
      204,
    ],
    ["GET /health/live", "/health/live", {}, 200],
    ["GET /health/ready", "/health/ready", {}, 200],
    ["GET /metrics", "/metrics", {}, 200],
    ["the SDK's packages, not served here", "/sdk/latchkey-js.tgz", {}, 404],
    ["the Svix-compatible API without a token", "/svix/api/v1/app/x", {}, 401],
  ];
}

function expectSecurityHeaders(headers: Headers, hsts: string | null, name: string): void {
  expect(headers.get("x-content-type-options"), name).toBe("nosniff");
  expect(headers.get("referrer-policy"), name).toBe("no-referrer");
  expect(headers.get("strict-transport-security"), name).toBe(hsts);
}

describe.each([
  ["an http public address: no Strict-Transport-Security", "http" as const, null],
  ["an https public address: Strict-Transport-Security", "https" as const, HSTS],
])("%s", (_name, kind, hsts) => {
  it("on every kind of answer, through app.request()", async () => {
    // Once first, so that the read is cached and answered at once the second time.
    await apps[kind].request("http://localhost/api/v1/users/me", { headers: authHeaders(user.as) });
    for (const [name, path, init, status] of answers()) {
      const res = await apps[kind].request(`http://localhost${path}`, init);
      expect(res.status, `${name}: ${await res.clone().text()}`).toBe(status);
      expectSecurityHeaders(res.headers, hsts, name);
    }
  });

  it("on every kind of answer, through the Node adapter on a socket", async () => {
    const http: Server = createHttpServer(apps[kind].fetch);
    await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
    try {
      const base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
      await fetch(`${base}/api/v1/users/me`, { headers: authHeaders(user.as) });
      for (const [name, path, init, status] of answers()) {
        const res = await fetch(`${base}${path}`, init);
        await res.arrayBuffer();
        expect(res.status, name).toBe(status);
        expectSecurityHeaders(res.headers, hsts, name);
      }
    } finally {
      await new Promise((resolve) => http.close(resolve));
    }
  });
});

it("the server's own app follows its configured address (http here)", async () => {
  const res = await server.request("/users/me", { as: user.as });
  expect(res.status).toBe(200);
  expectSecurityHeaders(res.headers, null, "GET /users/me");
});
