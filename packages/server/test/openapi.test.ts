/** GET /api/v1/openapi.json: a well-formed OpenAPI 3.1 document covering every registered route. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadRoutes } from "../src/route-table.ts";
import { createTestServer, type TestServer } from "./harness.ts";

const allRoutes = await loadRoutes();

let server: TestServer;
let doc: any;
beforeAll(async () => {
  server = await createTestServer();
  const res = await server.request("/openapi.json");
  expect(res.status, res.text).toBe(200);
  doc = res.body;
});
afterAll(() => server.close());

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];
const toOpenApiPath = (path: string) => path.replace(/:([A-Za-z0-9_]+)/g, "{$1}");

describe("GET /api/v1/openapi.json", () => {
  it("is JSON, cacheable as any API response, and also served under /api/latest", async () => {
    const res = await server.request("/openapi.json");
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe("no-store, max-age=0");
    const latest = await server.instance.app.request("http://localhost/api/latest/openapi.json");
    expect(latest.status).toBe(200);
    expect(await latest.json()).toEqual(doc);
  });

  it("has the OpenAPI 3.1 top-level shape", () => {
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    expect(typeof doc.info?.title).toBe("string");
    expect(doc.info.title.length).toBeGreaterThan(0);
    expect(typeof doc.info.version).toBe("string");
    expect(Array.isArray(doc.servers)).toBe(true);
    expect(doc.servers[0].url).toBe(`${server.config.apiUrl}/api/v1`);
    expect(typeof doc.paths).toBe("object");
    for (const key of Object.keys(doc)) {
      expect([
        "openapi",
        "info",
        "jsonSchemaDialect",
        "servers",
        "paths",
        "webhooks",
        "components",
        "security",
        "tags",
        "externalDocs",
      ]).toContain(key);
    }
  });

  it("covers every registered route, with path parameters as {name}", () => {
    const missing: string[] = [];
    for (const route of allRoutes) {
      const path = toOpenApiPath(route.path);
      if (!doc.paths[path]?.[route.method.toLowerCase()]) missing.push(`${route.method} ${path}`);
    }
    expect(missing).toEqual([]);
    expect(doc.paths["/openapi.json"]?.get).toBeDefined();
  });

  it("lists nothing that is not served", () => {
    const served = new Set(allRoutes.map((r) => `${r.method.toLowerCase()} ${toOpenApiPath(r.path)}`));
    served.add("get /openapi.json");
    const listed = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.keys(item as object)
        .filter((k) => METHODS.includes(k))
        .map((m) => `${m} ${path}`),
    );
    expect(listed.filter((op) => !served.has(op))).toEqual([]);
    expect(listed.length).toBe(served.size);
  });

  it("every operation is well formed", () => {
    const operationIds = new Set<string>();
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      expect(path.startsWith("/"), path).toBe(true);
      expect(path, "Hono-style :params must not leak").not.toContain(":");
      const templated = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
      for (const [method, op] of Object.entries<any>(item)) {
        const where = `${method.toUpperCase()} ${path}`;
        expect(METHODS, where).toContain(method);
        expect(typeof op.summary, where).toBe("string");
        expect(typeof op.operationId, where).toBe("string");
        expect(operationIds.has(op.operationId), `duplicate operationId ${op.operationId}`).toBe(false);
        operationIds.add(op.operationId);
        expect(Object.keys(op.responses ?? {}).length, where).toBeGreaterThan(0);
        for (const status of Object.keys(op.responses)) expect(status, where).toMatch(/^([1-5]\d\d|[1-5]XX|default)$/);
        for (const response of Object.values<any>(op.responses)) expect(typeof response.description, where).toBe("string");

        const params: any[] = op.parameters ?? [];
        const seen = new Set<string>();
        for (const p of params) {
          expect(["path", "query", "header", "cookie"], where).toContain(p.in);
          expect(typeof p.name, where).toBe("string");
          const key = `${p.in}:${p.name}`;
          expect(seen.has(key), `${where}: parameter ${key} listed twice`).toBe(false);
          seen.add(key);
          if (p.in === "path") {
            expect(p.required, `${where}: path parameter ${p.name} must be required`).toBe(true);
            expect(templated, `${where}: path parameter ${p.name} not in the path`).toContain(p.name);
          }
          expect(p.schema ?? p.content, where).toBeDefined();
        }
        for (const name of templated) {
          expect(
            params.some((p) => p.in === "path" && p.name === name),
            `${where}: path parameter {${name}} is not declared`,
          ).toBe(true);
        }
        if (op.requestBody) {
          expect(typeof op.requestBody.content, where).toBe("object");
          expect(Object.keys(op.requestBody.content).length, where).toBeGreaterThan(0);
        }
        if (method === "get") expect(op.requestBody, `${where}: GET ignores bodies`).toBeUndefined();
      }
    }
  });

  it("documents who may call each route, as security schemes for the x-stack-* headers", () => {
    const schemes = doc.components.securitySchemes;
    expect(schemes.AccessType).toEqual(expect.objectContaining({ type: "apiKey", in: "header", name: "x-stack-access-type" }));
    expect(schemes.SecretServerKey).toEqual(expect.objectContaining({ type: "apiKey", in: "header", name: "x-stack-secret-server-key" }));
    for (const route of allRoutes) {
      const op = doc.paths[toOpenApiPath(route.path)][route.method.toLowerCase()];
      const where = `${route.method} ${route.path}`;
      if (route.access === "public") {
        expect(op.security, where).toEqual([]);
        continue;
      }
      expect(op["x-access-types"], where).toEqual([...route.access]);
      for (const requirement of op.security) {
        expect(Object.keys(requirement), where).toEqual(expect.arrayContaining(["AccessType", "ProjectId"]));
        for (const name of Object.keys(requirement)) expect(schemes[name], `${where}: ${name}`).toBeDefined();
      }
      const credentials = new Set(op.security.flatMap((r: object) => Object.keys(r)));
      if (route.access.includes("server")) expect(credentials.has("SecretServerKey"), where).toBe(true);
      if (route.access.includes("admin")) expect(credentials.has("AdminAccessToken"), where).toBe(true);
      if (!route.access.includes("client")) expect(credentials.has("PublishableClientKey"), where).toBe(false);
    }
  });

  it("lists the coded errors of each route, with the authentication errors on every authenticated one", () => {
    const me = doc.paths["/users/me"].get;
    expect(me["x-known-errors"]).toEqual(
      expect.arrayContaining(["SCHEMA_ERROR", "ACCESS_TYPE_REQUIRED", "CANNOT_GET_OWN_USER_WITHOUT_USER"]),
    );
    expect(me.responses["400"].content["application/json"].schema.properties.code.enum).toContain("CANNOT_GET_OWN_USER_WITHOUT_USER");
    expect(me.responses["401"].headers["x-stack-known-error"].schema.enum).toContain("INSUFFICIENT_ACCESS_TYPE");
    const getUser = doc.paths["/users/{user_id}"].get;
    expect(getUser.responses["404"].content["application/json"].schema.properties.code.enum).toEqual(["USER_NOT_FOUND"]);
  });

  it("documents response bodies, the client view beside the server view", () => {
    const me = doc.paths["/users/me"].get.responses["200"].content["application/json"].schema;
    expect(me.oneOf).toHaveLength(2);
    expect(Object.keys(me.oneOf[0].properties)).toContain("server_metadata");
    expect(Object.keys(me.oneOf[1].properties)).not.toContain("server_metadata");
    const list = doc.paths["/users"].get.responses["200"].content["application/json"].schema;
    expect(list.properties.items.type).toBe("array");
  });

  it("documents the contact-channel and e-mail endpoints: answers, statuses and coded errors", () => {
    const json = (op: any, status: string) => op.responses[status].content["application/json"].schema;
    const create = doc.paths["/contact-channels"].post;
    expect(Object.keys(create.responses)).toContain("201");
    expect(Object.keys(json(create, "201").properties).sort()).toEqual([
      "id",
      "is_primary",
      "is_verified",
      "type",
      "used_for_auth",
      "user_id",
      "value",
    ]);
    expect(create["x-known-errors"]).toEqual(
      expect.arrayContaining(["USER_ID_DOES_NOT_EXIST", "CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE"]),
    );
    const verify = doc.paths["/contact-channels/verify"].post;
    expect(json(verify, "404").properties.code.enum).toEqual(["VERIFICATION_CODE_NOT_FOUND"]);
    expect(json(verify, "409").properties.code.enum).toEqual(["VERIFICATION_CODE_ALREADY_USED"]);
    expect(json(doc.paths["/contact-channels/verify/check-code"].post, "200").properties.is_code_valid.const).toBe(true);
    expect(doc.paths["/contact-channels/send-verification-code"].post["x-requires-user"]).toBe(true);
    const preferences = json(doc.paths["/emails/notification-preference/{user_id}"].get, "200");
    expect(preferences.properties.items.items.properties.notification_category_name.enum).toEqual(["Transactional", "Marketing"]);
    const send = doc.paths["/emails/send-email"].post;
    expect(json(send, "200").properties.results.type).toBe("array");
    expect(send["x-known-errors"]).toEqual(expect.arrayContaining(["REQUIRES_CUSTOM_EMAIL_SERVER", "USER_ID_DOES_NOT_EXIST"]));
    expect(send["x-access-types"]).toEqual(["server", "admin"]);
    const unsubscribe = doc.paths["/emails/unsubscribe"];
    for (const op of [unsubscribe.get, unsubscribe.post]) {
      expect(op.security).toEqual([]);
      expect(Object.keys(op.responses["200"].content)).not.toContain("application/json");
    }
  });

  it("documents the text, redirect and self-describing answers, and the token endpoint's two grants", () => {
    expect(Object.keys(doc.paths["/"].get.responses["200"].content)).toEqual(["text/plain"]);
    const redirect = doc.paths["/projects-anonymous-users/{project_id}/.well-known/jwks.json"].get.responses["307"];
    expect(redirect.headers.location.schema.type).toBe("string");
    const self = doc.paths["/openapi.json"].get.responses["200"].content["application/json"].schema;
    expect(self.required).toEqual(expect.arrayContaining(["openapi", "info", "paths"]));
    const token = doc.paths["/auth/oauth/token"].post;
    expect(token.security).toEqual([]);
    const grants = token.responses["200"].content["application/json"].schema.anyOf;
    expect(grants.map((g: any) => g.required.includes("refresh_token"))).toEqual([true, false]);
    expect(token["x-known-errors"]).toEqual(
      expect.arrayContaining(["INVALID_OAUTH_CLIENT_ID_OR_SECRET", "REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED"]),
    );
    const sessions = doc.paths["/auth/sessions"].get.responses["200"].content["application/json"].schema;
    expect(sessions.properties.items.items.required).toEqual(expect.arrayContaining(["id", "user_id", "is_current_session"]));
    // CLI polling answers 200 while waiting and 201 once, with the same schema.
    const poll = doc.paths["/auth/cli/poll"].post.responses;
    expect(poll["201"]).toEqual(poll["200"]);
  });

  it("is a valid OpenAPI 3.1 document for a standard validator", async () => {
    const { validate } = await import("@readme/openapi-parser");
    const result = await validate(structuredClone(doc));
    expect(result.valid ? [] : result.errors).toEqual([]);
  });

  it("documents request bodies and query parameters from the route schemas", () => {
    const signUp = doc.paths["/auth/password/sign-up"].post;
    const schema = signUp.requestBody.content["application/json"].schema;
    expect(Object.keys(schema.properties)).toEqual(expect.arrayContaining(["email", "password"]));
    expect(schema.required).toEqual(expect.arrayContaining(["email", "password"]));
    const listUsers = doc.paths["/users"].get;
    const queryNames = listUsers.parameters.filter((p: any) => p.in === "query").map((p: any) => p.name);
    expect(queryNames).toEqual(expect.arrayContaining(["cursor", "limit", "desc"]));
    const status = doc.paths["/users"].post.responses;
    expect(Object.keys(status)).toContain("201");
  });
});
