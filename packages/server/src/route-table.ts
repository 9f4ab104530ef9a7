/**
 * The route table (the endpoint map), derived from the files under routes/
 * and under each registered capability's routes/ folder
 * (capabilities/index.ts): each file's path in its folder spells the URL it
 * serves under /api/v1 (routes/auth/password/sign-in.ts serves
 * /auth/password/sign-in, capabilities/cli-login/routes/auth/cli/poll.ts
 * serves /auth/cli/poll, `[user_id]` is the parameter `:user_id`, `index.ts`
 * serves its folder's URL) and default-exports the routes it declares there,
 * one per method. A file that declares another URL, or that exports no
 * routes, or a method and URL that two files serve, stops the server at
 * start with a message naming the files, so a route can be neither forgotten
 * nor served at a path its file does not show. The OpenAPI document is made
 * from this same table (http/openapi-route.ts).
 */
import { existsSync, readdirSync } from "node:fs";
import { join, sep } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { capabilities, capabilityRoutesDir } from "./capabilities/index.ts";
import type { RouteDefinition } from "./http/route.ts";

/** The server's sources: route folders are named by their path under it. */
export const SRC_DIR = fileURLToPath(new URL("./", import.meta.url));
export const ROUTES_DIR = join(SRC_DIR, "routes");

/** Every folder of route files, as its path under src/: "routes", then each capability's, in registration order. */
export function routeDirs(): string[] {
  return ["routes", ...capabilities.map(capabilityRoutesDir)];
}

/** A route file: its folder (under src/, see routeDirs) and its path in that folder, which spells its URL. */
export interface RouteFile {
  dir: string;
  file: string;
}

/** Every route file of the server, folder by folder. */
export function allRouteFiles(src = SRC_DIR): RouteFile[] {
  return routeDirs().flatMap((dir) => routeFiles(join(src, dir)).map((file) => ({ dir, file })));
}

/** Every route file in one folder, as its path there with forward slashes, sorted; none when there is no such folder (a capability without routes). */
export function routeFiles(dir = ROUTES_DIR): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".ts") && !file.endsWith(".d.ts"))
    .map((file) => file.split(sep).join("/"))
    .sort();
}

/** The URL (under /api/v1) a route file serves: "users/[user_id].ts" → "/users/:user_id", "users/index.ts" → "/users". */
export function urlOfRouteFile(file: string): string {
  const segments = file.replace(/\.ts$/, "").split("/");
  if (segments.at(-1) === "index") segments.pop();
  return "/" + segments.map((s) => s.replace(/^\[([A-Za-z_][A-Za-z0-9_]*)\]$/, ":$1")).join("/");
}

/** Throws unless `exported` is a non-empty list of routes, all at the URL of `file` (its path in `dir`), one per method. */
export function checkRouteFile(file: string, exported: unknown, dir = "routes"): RouteDefinition[] {
  const where = `packages/server/src/${dir}/${file}`;
  if (!Array.isArray(exported) || exported.length === 0) {
    throw new Error(`${where} must default-export a non-empty array of routes (defineRoute(...)), the routes it serves.`);
  }
  const url = urlOfRouteFile(file);
  const methods = new Set<string>();
  for (const route of exported as Partial<RouteDefinition>[]) {
    if (typeof route?.path !== "string" || typeof route.method !== "string") {
      throw new Error(`${where} must default-export routes made with defineRoute(...); one entry has no method or path.`);
    }
    if (route.path !== url) {
      throw new Error(
        `${where} declares ${route.method} ${route.path}, but its file path serves ${url}. ` +
          `Move the file to match the URL (a [name] folder or file is the :name parameter, index.ts its folder's URL), or fix its path.`,
      );
    }
    if (methods.has(route.method)) throw new Error(`${where} declares ${route.method} ${route.path} twice.`);
    methods.add(route.method);
  }
  return exported as RouteDefinition[];
}

/**
 * Registration order. The router keeps the first route that matches
 * (http/router.ts), and "/users/me" also matches "/users/:user_id", so at
 * each level a static segment comes before a parameter: the first segment
 * where two paths differ in kind decides. The rest (alphabetical, then the
 * shorter path, then the method) only makes the order the same on every start.
 */
export function compareRoutes(a: { path: string; method: string }, b: { path: string; method: string }): number {
  const as = a.path.split("/").filter(Boolean);
  const bs = b.path.split("/").filter(Boolean);
  for (let i = 0; i < Math.min(as.length, bs.length); i++) {
    const aParam = as[i]!.startsWith(":");
    const bParam = bs[i]!.startsWith(":");
    if (aParam !== bParam) return aParam ? 1 : -1;
    if (!aParam && as[i] !== bs[i]) return as[i]! < bs[i]! ? -1 : 1;
  }
  if (as.length !== bs.length) return as.length - bs.length;
  return a.method < b.method ? -1 : a.method > b.method ? 1 : 0;
}

let loaded: Promise<RouteDefinition[]> | null = null;
/** A route file (its folder under src/ and its path there) and what it default-exports. */
export type RouteManifest = [dir: string, file: string, exported: unknown][];
let manifest: RouteManifest | null = null;

/**
 * The built server has no route folders to read: scripts/lib/server-build.mjs
 * lists allRouteFiles() at build time and bundles a module that imports each
 * of them and calls this first, so the same files are checked by the same
 * rules at start.
 */
export function useRouteManifest(entries: RouteManifest): void {
  manifest = entries;
}

/** Imports every route file once per process (each server instance reuses the table), checked and in registration order. */
export function loadRoutes(): Promise<RouteDefinition[]> {
  loaded ??= manifest ? Promise.resolve(checkRouteTable(manifest)) : loadRouteTable();
  return loaded;
}

/** The route table read from the files (routes/ and every capability's routes/ under `src`). */
export async function loadRouteTable(src = SRC_DIR): Promise<RouteDefinition[]> {
  const files = allRouteFiles(src);
  const exported = await importDefaults(files.map(({ dir, file }) => join(src, dir, file)));
  return checkRouteTable(files.map(({ dir, file }, i) => [dir, file, exported[i]]));
}

/** The routes of one folder at `path`, checked as the route table checks them; `dir` names it in messages. */
export async function loadRoutesFrom(path: string, dir = "routes"): Promise<RouteDefinition[]> {
  const files = routeFiles(path);
  const exported = await importDefaults(files.map((file) => join(path, file)));
  return checkRouteTable(files.map((file, i) => [dir, file, exported[i]]));
}

async function importDefaults(paths: string[]): Promise<unknown[]> {
  const modules = await Promise.all(paths.map((path) => import(pathToFileURL(path).href) as Promise<{ default?: unknown }>));
  return modules.map((module) => module.default);
}

/**
 * Every file's routes checked (checkRouteFile), and no method and URL served by two files (both in routes/,
 * in two capabilities, or one of each), in registration order.
 */
export function checkRouteTable(entries: RouteManifest): RouteDefinition[] {
  const servedBy = new Map<string, string>();
  const routes: RouteDefinition[] = [];
  for (const [dir, file, exported] of entries) {
    const where = `${dir}/${file}`;
    for (const route of checkRouteFile(file, exported, dir)) {
      const key = `${route.method} ${route.path}`;
      const other = servedBy.get(key);
      if (other !== undefined) {
        throw new Error(
          `${key} is served by two files, packages/server/src/${other} and packages/server/src/${where}. ` +
            `An endpoint has one route file, in routes/ or in one capability's routes/: remove one.`,
        );
      }
      servedBy.set(key, where);
      routes.push(route);
    }
  }
  return routes.sort(compareRoutes);
}
