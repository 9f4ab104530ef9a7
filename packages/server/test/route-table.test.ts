/**
 * The route table is derived from the files under routes/ and under each
 * capability's routes/ (route-table.ts): every file is served, at the URL its
 * path spells, in an order where static segments win over parameters; a file
 * that declares another URL, or a second file serving a method and URL,
 * stops the server at start.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allRouteFiles, checkRouteFile, compareRoutes, loadRoutes, loadRoutesFrom, urlOfRouteFile } from "../src/route-table.ts";
import { createTestServer, type TestServer } from "./harness.ts";

const NOT_ROUTED = /^Not found\. See \/api\/v1\/openapi\.json/;

describe("a route file's URL", () => {
  it.each([
    ["index.ts", "/"],
    ["users/index.ts", "/users"],
    ["users/me.ts", "/users/me"],
    ["users/[user_id].ts", "/users/:user_id"],
    ["auth/password/sign-in.ts", "/auth/password/sign-in"],
    [
      "contact-channels/[user_id]/[contact_channel_id]/send-verification-code.ts",
      "/contact-channels/:user_id/:contact_channel_id/send-verification-code",
    ],
    ["projects/[project_id]/.well-known/jwks.json.ts", "/projects/:project_id/.well-known/jwks.json"],
  ])("%s serves %s", (file, url) => {
    expect(urlOfRouteFile(file)).toBe(url);
  });
});

describe("checkRouteFile", () => {
  const route = (method: string, path: string) => ({ method, path, handler: () => ({ body: null }) });

  it("takes a file's routes at its URL, one per method", () => {
    const routes = [route("GET", "/users/:user_id"), route("PATCH", "/users/:user_id"), route("DELETE", "/users/:user_id")];
    expect(checkRouteFile("users/[user_id].ts", routes)).toBe(routes);
  });

  it("refuses a route at another URL than its file's, naming the file and both URLs", () => {
    expect(() => checkRouteFile("auth/password/sign-in.ts", [route("POST", "/auth/password/signin")])).toThrow(
      "packages/server/src/routes/auth/password/sign-in.ts declares POST /auth/password/signin, but its file path serves /auth/password/sign-in.",
    );
    expect(() => checkRouteFile("users/[user_id].ts", [route("GET", "/users/:id")])).toThrow(/serves \/users\/:user_id/);
    expect(() => checkRouteFile("users/index.ts", [route("GET", "/users/index")])).toThrow(/serves \/users\./);
  });

  it("refuses a file that exports no routes, or something else", () => {
    expect(() => checkRouteFile("users/me.ts", undefined)).toThrow(/routes\/users\/me\.ts must default-export a non-empty array of routes/);
    expect(() => checkRouteFile("users/me.ts", [])).toThrow(/must default-export a non-empty array/);
    expect(() => checkRouteFile("users/me.ts", [{ summary: "no path" }])).toThrow(/one entry has no method or path/);
  });

  it("refuses the same method twice in a file", () => {
    expect(() => checkRouteFile("users/me.ts", [route("GET", "/users/me"), route("GET", "/users/me")])).toThrow(
      /declares GET \/users\/me twice/,
    );
  });
});

describe("loading a routes folder", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "latchkey-routes-"));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  function write(file: string, source: string) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), source);
  }

  it("collects every file's routes, nested folders included, static segments first", async () => {
    write("things/[thing_id].ts", 'export default [{ method: "GET", path: "/things/:thing_id" }];\n');
    write("things/mine.ts", 'export default [{ method: "GET", path: "/things/mine" }, { method: "DELETE", path: "/things/mine" }];\n');
    write("things/index.ts", 'export default [{ method: "GET", path: "/things" }];\n');
    const routes = await loadRoutesFrom(dir);
    expect(routes.map((r) => `${r.method} ${r.path}`)).toEqual([
      "GET /things",
      "DELETE /things/mine",
      "GET /things/mine",
      "GET /things/:thing_id",
    ]);
  });

  it("fails, naming both files, when two files serve one method and URL", async () => {
    write("things/index.ts", 'export default [{ method: "GET", path: "/things" }];\n');
    write("things.ts", 'export default [{ method: "GET", path: "/things" }];\n');
    await expect(loadRoutesFrom(dir)).rejects.toThrow(
      /GET \/things is served by two files, packages\/server\/src\/routes\/things\.ts and packages\/server\/src\/routes\/things\/index\.ts/,
    );
    rmSync(join(dir, "things.ts"));
  });

  it("fails, naming the file, when one file declares another URL", async () => {
    write("things/wrong.ts", 'export default [{ method: "GET", path: "/things/right" }];\n');
    await expect(loadRoutesFrom(dir)).rejects.toThrow(
      /routes\/things\/wrong\.ts declares GET \/things\/right, but its file path serves \/things\/wrong/,
    );
  });
});

describe("registration order", () => {
  const order = (paths: string[]) =>
    paths
      .map((path) => ({ path, method: "GET" }))
      .sort(compareRoutes)
      .map((r) => r.path);

  it("puts a static segment before a parameter at the same level, wherever they are listed", () => {
    expect(order(["/users/:user_id", "/users/me"])).toEqual(["/users/me", "/users/:user_id"]);
    expect(order(["/users/me", "/users/:user_id"])).toEqual(["/users/me", "/users/:user_id"]);
    expect(order(["/a/:x/c", "/a/b/:y", "/a/:x/:y"])).toEqual(["/a/b/:y", "/a/:x/c", "/a/:x/:y"]);
    expect(order(["/:p/z", "/s/:q"])).toEqual(["/s/:q", "/:p/z"]);
  });

  it("holds in the server's own table: /users/me before /users/:user_id", async () => {
    const table = (await loadRoutes()).map((r) => `${r.method} ${r.path}`);
    for (const method of ["GET", "PATCH", "DELETE"]) {
      expect(table.indexOf(`${method} /users/me`)).toBeGreaterThanOrEqual(0);
      expect(table.indexOf(`${method} /users/me`)).toBeLessThan(table.indexOf(`${method} /users/:user_id`));
    }
  });
});

describe("the server's routes", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await createTestServer();
  });
  afterAll(() => server.close());

  it("has a route for every file under routes/ and the capabilities' routes/, and nothing else", async () => {
    const files = allRouteFiles();
    expect(files).toContainEqual({ dir: "routes", file: "users/me.ts" });
    expect(files).toContainEqual({ dir: "capabilities/cli-login/routes", file: "auth/cli/poll.ts" });
    const fromFiles = new Set(files.map(({ file }) => urlOfRouteFile(file)));
    const table = await loadRoutes();
    expect(new Set(table.map((r) => r.path))).toEqual(fromFiles);
  });

  it("serves every route it loaded (none is shadowed or missing)", async () => {
    for (const route of await loadRoutes()) {
      const path = route.path.replace(/:[a-z_]+/g, "00000000-0000-4000-8000-000000000000");
      const res = await server.request(path, { method: route.method });
      expect(res.text, `${route.method} ${route.path}`).not.toMatch(NOT_ROUTED);
      expect(res.status, `${route.method} ${route.path}`).not.toBe(405);
    }
  });

  it("answers GET /users/me with the me route, not /users/:user_id", async () => {
    const res = await server.request("/users/me", { as: server.internal.server });
    expect(res.status).toBe(400);
    expect(res.headers.get("x-stack-known-error")).toBe("CANNOT_GET_OWN_USER_WITHOUT_USER");
  });
});

describe("the contract in @latchkey/shared", () => {
  it("is served whole: each endpoint by exactly one route, and no route outside it", async () => {
    const { allEndpoints } = await import("@latchkey/shared");
    const { openApiRoutes } = await import("../src/http/openapi-route.ts");
    const routes = await loadRoutes();
    const served = [...routes, ...openApiRoutes(routes)];
    const key = (r: { method: string; path: string }) => `${r.method} ${r.path}`;
    const declared = allEndpoints.map(key);
    expect(new Set(declared).size).toBe(declared.length);
    expect(served.map(key).sort()).toEqual([...declared].sort());
    // A route is its endpoint plus a handler: the schemas it validates with are the contract's own objects.
    for (const route of served) {
      const endpoint = allEndpoints.find((e) => key(e) === key(route))!;
      expect(route.response, key(route)).toBe(endpoint.response);
      expect(route.body, key(route)).toBe(endpoint.body);
    }
  });
});
