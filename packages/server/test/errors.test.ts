/**
 * How failures reach the caller: body parsing, schema
 * errors, unexpected exceptions, 405/404, the headers on every response,
 * CORS, and the /api/latest alias.
 */
import { MAX_REQUEST_BODY_BYTES, defineEndpoint } from "@latchkey/shared";
import { z } from "zod";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../src/app.ts";
import { defineRoute } from "../src/http/route.ts";
import { serverWithProject, uniqueEmail, PASSWORD, type Project } from "./fixtures.ts";
import { authHeaders, capturingLogger, expectKnownError, type TestResponse, type TestServer } from "./harness.ts";

let server: TestServer;
let project: Project;
beforeAll(async () => ({ server, project } = await serverWithProject()));
afterAll(() => server?.close());

/** Any request, by full path (so /api/latest and non-API paths can be reached), with a raw body. */
async function raw(
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: BodyInit } = {},
  app: { request: (url: string, init: RequestInit) => Response | Promise<Response> } = server.instance.app,
): Promise<TestResponse> {
  const res = await app.request(`http://localhost${path}`, { method: init.method ?? "GET", headers: init.headers, body: init.body });
  const text = await res.text();
  const body = (res.headers.get("content-type") ?? "").includes("json") ? JSON.parse(text) : text;
  return { status: res.status, headers: res.headers, body, text };
}

/** A coded error exactly as the API shapes it. */
function expectCoded(res: TestResponse, code: string, status: number, details: Record<string, unknown> | null) {
  expectKnownError(res, code, status);
  expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
  // Coded errors are indented by two spaces; keys in the order code, details, error.
  expect(res.text).toBe(JSON.stringify(res.body, null, 2));
  if (details === null) expect(Object.keys(res.body)).toEqual(["code", "error"]);
  else {
    expect(Object.keys(res.body)).toEqual(["code", "details", "error"]);
    expect(res.body.details).toEqual(details);
  }
  expect(typeof res.body.error).toBe("string");
}

function expectSchemaError(res: TestResponse, message: string) {
  expectCoded(res, "SCHEMA_ERROR", 400, { message });
  expect(res.body.error).toBe(message);
}

function expectPlain(res: TestResponse, status: number) {
  expect(res.status, res.text).toBe(status);
  expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
  expect(res.headers.get("x-stack-known-error")).toBeNull();
}

const clientJson = () => ({ ...authHeaders(project.client), "content-type": "application/json" });

describe("BODY_PARSING_ERROR", () => {
  it("invalid JSON", async () => {
    const res = await raw("/api/v1/auth/password/sign-up", { method: "POST", headers: clientJson(), body: '{"email": ' });
    expectCoded(res, "BODY_PARSING_ERROR", 400, null);
    expect(res.body.error).toMatch(/JSON/);
  });

  it("a body that is not UTF-8", async () => {
    for (const contentType of ["application/json", "text/plain", "application/x-www-form-urlencoded"]) {
      const res = await raw("/api/v1/auth/password/sign-up", {
        method: "POST",
        headers: { ...authHeaders(project.client), "content-type": contentType },
        body: new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
      });
      expectCoded(res, "BODY_PARSING_ERROR", 400, null);
      expect(res.body.error).toMatch(/UTF-8/);
    }
  });

  it("an unknown content type", async () => {
    const res = await raw("/api/v1/auth/password/sign-up", {
      method: "POST",
      headers: { ...authHeaders(project.client), "content-type": "application/xml" },
      body: "<email>a@b.co</email>",
    });
    expectCoded(res, "BODY_PARSING_ERROR", 400, null);
    expect(res.body.error).toContain("application/xml");
  });

  it("a body over 16 MiB is refused, whether it says its length or not, and changes nothing", async () => {
    const email = uniqueEmail();
    const huge = JSON.stringify({ email, password: PASSWORD, padding: "x".repeat(MAX_REQUEST_BODY_BYTES) });
    // Streamed without a length: counted while read, refused past the limit.
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        const bytes = new TextEncoder().encode(huge);
        for (let at = 0; at < bytes.length; at += 64 * 1024) controller.enqueue(bytes.subarray(at, at + 64 * 1024));
        controller.close();
      },
    });
    const streamed = await server.instance.app.request("http://localhost/api/v1/auth/password/sign-up", {
      method: "POST",
      headers: clientJson(),
      body: stream,
      duplex: "half",
    } as RequestInit);
    const streamedBody = await streamed.json();
    expect(streamed.status).toBe(400);
    expect(streamedBody.code).toBe("BODY_PARSING_ERROR");
    expect(streamedBody.error).toBe("The request body is larger than 16 MiB.");

    // Over a socket, with content-length: refused before the body is read.
    const base = await server.listen();
    const declared = await fetch(`${base}/api/v1/auth/password/sign-up`, { method: "POST", headers: clientJson(), body: huge });
    expect(declared.status).toBe(400);
    expect(((await declared.json()) as { code: string }).code).toBe("BODY_PARSING_ERROR");

    // Nothing was created.
    const signIn = await raw("/api/v1/auth/password/sign-in", {
      method: "POST",
      headers: clientJson(),
      body: JSON.stringify({ email, password: PASSWORD }),
    });
    expect(signIn.status).toBe(400);
    expect(signIn.headers.get("x-stack-known-error")).toBe("EMAIL_PASSWORD_MISMATCH");
  });

  it("is checked before authentication", async () => {
    const res = await raw("/api/v1/users/me", {
      method: "PATCH",
      headers: { "content-type": "application/json", "x-stack-access-type": "nonsense" },
      body: "nope",
    });
    expectCoded(res, "BODY_PARSING_ERROR", 400, null);
  });

  it("JSON with a charset parameter and form bodies are accepted", async () => {
    const json = await raw("/api/v1/auth/password/sign-up", {
      method: "POST",
      headers: { ...authHeaders(project.client), "content-type": "application/json; charset=utf-8" },
      body: JSON.stringify({ email: uniqueEmail(), password: PASSWORD }),
    });
    expect(json.status, json.text).toBe(200);
    const form = await raw("/api/v1/auth/password/sign-up", {
      method: "POST",
      headers: { ...authHeaders(project.client), "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ email: uniqueEmail(), password: PASSWORD }).toString(),
    });
    expect(form.status, form.text).toBe(200);
  });
});

describe("SCHEMA_ERROR", () => {
  const signUp = (body: unknown, path = "/api/v1/auth/password/sign-up") =>
    raw(path, { method: "POST", headers: clientJson(), body: JSON.stringify(body) });

  it("an invalid email", async () => {
    const res = await signUp({ email: "not-an-email", password: PASSWORD });
    expectSchemaError(res, "Request validation failed on POST /api/v1/auth/password/sign-up:\n  - body.email must be a valid email");
  });

  it("missing fields, one line each", async () => {
    const res = await signUp({});
    expectSchemaError(
      res,
      "Request validation failed on POST /api/v1/auth/password/sign-up:\n  - body.email must be defined\n  - body.password must be defined",
    );
  });

  it("no body at all", async () => {
    const res = await raw("/api/v1/auth/password/sign-up", { method: "POST", headers: authHeaders(project.client) });
    expectCoded(res, "SCHEMA_ERROR", 400, {
      message: expect.stringMatching(/^Request validation failed on POST \/api\/v1\/auth\/password\/sign-up:\n {2}- body/),
    });
  });

  it("null and wrong types", async () => {
    const res = await signUp({ email: null, password: 123 });
    expectSchemaError(
      res,
      "Request validation failed on POST /api/v1/auth/password/sign-up:\n  - body.email cannot be null\n  - body.password must be a `string` type, but the final value was: `123`.",
    );
  });

  it("a number field given a string", async () => {
    const res = await raw("/api/v1/internal/api-keys", {
      method: "POST",
      headers: { ...authHeaders(project.ownerAdmin), "content-type": "application/json" },
      body: JSON.stringify({
        description: "x",
        expires_at_millis: "abc",
        has_publishable_client_key: true,
        has_secret_server_key: false,
        has_super_secret_admin_key: false,
      }),
    });
    expectSchemaError(
      res,
      'Request validation failed on POST /api/v1/internal/api-keys:\n  - body.expires_at_millis must be a `number` type, but the final value was: `"abc"`.',
    );
  });

  it("unknown body properties", async () => {
    const res = await signUp({ email: uniqueEmail(), password: PASSWORD, a: 1, b: 2 });
    expectSchemaError(res, "Request validation failed on POST /api/v1/auth/password/sign-up:\n  - body contains unknown properties: a, b");
  });

  it("unknown query properties; the query string is not part of the message", async () => {
    const res = await raw("/api/v1/users?foo=1&bar=2", { headers: authHeaders(project.server) });
    expectSchemaError(res, "Request validation failed on GET /api/v1/users:\n  - query contains unknown properties: foo, bar");
  });

  it("an invalid UUID in the path", async () => {
    const res = await raw("/api/v1/users/not-a-uuid", { headers: authHeaders(project.server) });
    expectSchemaError(res, "Request validation failed on GET /api/v1/users/not-a-uuid:\n  - params.user_id must be a valid UUID");
  });

  it("names the path as called (/api/latest)", async () => {
    const res = await signUp({ email: "nope", password: PASSWORD }, "/api/latest/auth/password/sign-up");
    expectSchemaError(res, "Request validation failed on POST /api/latest/auth/password/sign-up:\n  - body.email must be a valid email");
  });

  it("auth.user must be defined, and it wins over body errors", async () => {
    const res = await raw("/api/v1/auth/password/update", {
      method: "POST",
      headers: clientJson(),
      body: JSON.stringify({ old_password: 1 }),
    });
    expectSchemaError(res, "Request validation failed on POST /api/v1/auth/password/update:\n  - auth.user must be defined");
  });
});

describe("unexpected exceptions", () => {
  function appWith(handler: () => unknown) {
    const { logger, logs } = capturingLogger();
    const route = defineRoute(
      defineEndpoint({ method: "GET", path: "/boom", summary: "Throws", tags: ["Test"], access: "public", response: z.never() }),
      handler as () => never,
    );
    const app = createApp({ ...server.instance.services, logger }, [route]);
    return { app, logs };
  }

  async function expectHidden500(handler: () => unknown, logged: RegExp) {
    const { app, logs } = appWith(handler);
    const res = await raw("/api/v1/boom", {}, app);
    expectPlain(res, 500);
    expect(res.text.length).toBeGreaterThan(0);
    expect(res.text).not.toContain("secret internal detail");
    expect(res.text).not.toMatch(/\bat .*\.ts|Error:|stack/i);
    expect(res.headers.get("x-stack-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.headers.get("cache-control")).toBe("no-store, max-age=0");
    const entry = logs.find((l) => l.level >= 50);
    expect(entry, JSON.stringify(logs)).toBeDefined();
    expect(JSON.stringify(entry)).toMatch(logged);
    return entry!;
  }

  it("answer 500 plain text without the internal message, and are logged with the stack", async () => {
    const entry = await expectHidden500(() => {
      throw new Error("secret internal detail");
    }, /secret internal detail/);
    expect(entry.err.stack).toContain("secret internal detail");
    expect(JSON.stringify(entry)).toContain("/api/v1/boom");
  });

  it("also when the handler rejects asynchronously", async () => {
    await expectHidden500(async () => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      throw new TypeError("secret internal detail");
    }, /secret internal detail/);
  });

  it("also when the thrown value is not an Error", async () => {
    await expectHidden500(() => {
      throw "secret internal detail";
    }, /secret internal detail/);
  });

  it("also when it is thrown after the handler has waited", async () => {
    await expectHidden500(async () => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      throw "secret internal detail";
    }, /secret internal detail/);
  });

  it("the injected app still serves 404 and 405 the usual way", async () => {
    const { app } = appWith(() => ({ body: {} }));
    expectPlain(await raw("/api/v1/boom", { method: "POST" }, app), 405);
    expectPlain(await raw("/api/v1/users/me", {}, app), 404);
  });
});

describe("405 and 404", () => {
  it.each([
    ["POST", "/api/v1/users/me"],
    ["PUT", "/api/v1/projects/current"],
    ["DELETE", "/api/v1/"],
    ["PATCH", "/api/v1/auth/password/sign-up"],
    ["GET", "/api/v1/auth/password/sign-up"],
    ["POST", "/api/latest/users/me"],
  ])("%s %s → 405 plain `Method not allowed`", async (method, path) => {
    const res = await raw(path, { method, headers: authHeaders(project.client) });
    expectPlain(res, 405);
    expect(res.text).toBe("Method not allowed");
  });

  it.each(["/api/v1/nope", "/api/v1/users/me/extra", "/api/v2/users", "/nothing-here", "/api/latest/nope"])(
    "%s → 404 plain text",
    async (path) => {
      const res = await raw(path);
      expectPlain(res, 404);
      expect(res.text.length).toBeGreaterThan(0);
    },
  );
});

describe("headers on every response", () => {
  const ALLOWED = new Set([
    "content-type",
    "content-length",
    "cache-control",
    "x-stack-request-id",
    "x-stack-known-error",
    "access-control-allow-origin",
    "access-control-expose-headers",
    "vary",
    // The security headers every answer carries (security-headers.test.ts).
    "x-content-type-options",
    "referrer-policy",
  ]);

  it.each<[string, () => Promise<TestResponse>]>([
    ["success JSON", () => raw("/api/v1/projects/current", { headers: authHeaders(project.client) })],
    ["plain-text welcome", () => raw("/api/v1")],
    ["coded error", () => raw("/api/v1/users/me")],
    ["schema error", () => raw("/api/v1/users?x=1", { headers: authHeaders(project.server) })],
    ["404", () => raw("/api/v1/nope")],
    ["405", () => raw("/api/v1/users/me", { method: "PUT" })],
    ["body parsing error", () => raw("/api/v1/users/me", { method: "PATCH", headers: { "content-type": "application/json" }, body: "{" })],
    ["/api/latest", () => raw("/api/latest/projects/current", { headers: authHeaders(project.client) })],
  ])("%s: x-stack-request-id, cache-control: no-store, max-age=0, no other extras", async (_name, send) => {
    const res = await send();
    expect(res.headers.get("x-stack-request-id")).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(res.headers.get("cache-control")).toBe("no-store, max-age=0");
    const names: string[] = [];
    res.headers.forEach((_value, name) => names.push(name));
    expect(names.filter((name) => !ALLOWED.has(name))).toEqual([]);
  });

  it("request ids differ between responses", async () => {
    const ids = new Set<string | null>();
    for (let i = 0; i < 5; i++) ids.add((await raw("/api/v1")).headers.get("x-stack-request-id"));
    expect(ids.size).toBe(5);
  });

  it("success JSON is compact", async () => {
    const res = await raw("/api/v1/projects/current", { headers: authHeaders(project.client) });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(res.text).toBe(JSON.stringify(res.body));
  });
});

describe("CORS", () => {
  const STACK_HEADERS = [
    "access-type",
    "project-id",
    "branch-id",
    "publishable-client-key",
    "secret-server-key",
    "super-secret-admin-key",
    "admin-access-token",
    "access-token",
    "refresh-token",
    "allow-anonymous-user",
    "allow-restricted-user",
    "client-version",
    "random-nonce",
  ];
  const requested = ["content-type", ...STACK_HEADERS.flatMap((h) => [`x-stack-${h}`, `x-hexclave-${h}`])];

  it("a preflight allows every x-stack-* and x-hexclave-* request header", async () => {
    const res = await raw("/api/v1/users/me", {
      method: "OPTIONS",
      headers: {
        origin: "https://app.example.com",
        "access-control-request-method": "PATCH",
        "access-control-request-headers": requested.join(","),
      },
    });
    expect(res.status).toBeLessThan(300);
    expect(res.headers.get("access-control-allow-origin")).toMatch(/^(\*|https:\/\/app\.example\.com)$/);
    const allowed = (res.headers.get("access-control-allow-headers") ?? "").toLowerCase().split(/\s*,\s*/);
    for (const header of requested) expect(allowed, header).toContain(header);
    const methods = (res.headers.get("access-control-allow-methods") ?? "").split(/\s*,\s*/);
    for (const method of ["GET", "POST", "PATCH", "DELETE"]) expect(methods).toContain(method);
    expect(res.headers.get("x-stack-request-id")).toBeTruthy();
  });

  it("responses, including coded errors, expose x-stack-known-error", async () => {
    for (const send of [
      () => raw("/api/v1/users/me", { headers: { origin: "https://app.example.com" } }),
      () => raw("/api/v1/projects/current", { headers: { origin: "https://app.example.com", ...authHeaders(project.client) } }),
    ]) {
      const res = await send();
      expect(res.headers.get("access-control-allow-origin")).toMatch(/^(\*|https:\/\/app\.example\.com)$/);
      const exposed = (res.headers.get("access-control-expose-headers") ?? "").toLowerCase().split(/\s*,\s*/);
      expect(exposed).toContain("x-stack-known-error");
    }
  });
});

describe("/api/latest", () => {
  it.each(["/api/v1", "/api/v1/", "/api/latest", "/api/latest/"])("GET %s → the welcome text", async (path) => {
    const res = await raw(path);
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(res.text).toContain("Latchkey");
    expect(res.text).toContain("Authentication: None");
  });

  it("serves the same routes as /api/v1", async () => {
    const v1 = await raw("/api/v1/projects/current", { headers: authHeaders(project.client) });
    const latest = await raw("/api/latest/projects/current", { headers: authHeaders(project.client) });
    expect(latest.status).toBe(200);
    expect(latest.body).toEqual(v1.body);
  });

  it("a write and a coded error through the alias", async () => {
    const created = await raw("/api/latest/auth/password/sign-up", {
      method: "POST",
      headers: clientJson(),
      body: JSON.stringify({ email: uniqueEmail(), password: PASSWORD }),
    });
    expect(created.status, created.text).toBe(200);
    const me = await raw("/api/latest/users/me", {
      headers: { ...authHeaders(project.client), "x-stack-access-token": created.body.access_token },
    });
    expect(me.body.id).toBe(created.body.user_id);
    expectCoded(await raw("/api/latest/users"), "ACCESS_TYPE_REQUIRED", 400, null);
    const welcome = await raw("/api/latest");
    expect(welcome.status).toBe(200);
    expect(welcome.text).toContain("Authentication: None");
  });
});
