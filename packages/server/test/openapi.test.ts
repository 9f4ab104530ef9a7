/** GET /api/v1/openapi.json: a well-formed OpenAPI 3.1 document covering every registered route. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allRoutes } from "../src/routes/index.ts";
import { createTestServer, type TestServer } from "./harness.ts";

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
      expect(["openapi", "info", "jsonSchemaDialect", "servers", "paths", "webhooks", "components", "security", "tags", "externalDocs"]).toContain(key);
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
      Object.keys(item as object).filter((k) => METHODS.includes(k)).map((m) => `${m} ${path}`),
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

  it("documents who may call each route", () => {
    for (const route of allRoutes) {
      const op = doc.paths[toOpenApiPath(route.path)][route.method.toLowerCase()];
      const headerNames = (op.parameters ?? []).filter((p: any) => p.in === "header").map((p: any) => p.name);
      if (route.access === "public") continue;
      expect(headerNames, `${route.method} ${route.path}`).toContain("x-stack-access-type");
      expect(headerNames, `${route.method} ${route.path}`).toContain("x-stack-project-id");
      const typeParam = op.parameters.find((p: any) => p.name === "x-stack-access-type");
      expect(typeParam.schema.enum).toEqual([...route.access]);
    }
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
