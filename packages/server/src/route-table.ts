/**
 * The route table, derived from the files under routes/: each file's path
 * spells the URL it serves under /api/v1 (routes/auth/password/sign-in.ts
 * serves /auth/password/sign-in, `[user_id]` is the parameter `:user_id`,
 * `index.ts` serves its folder's URL) and default-exports the routes it
 * declares there, one per method. A file that declares another URL, or that
 * exports no routes, stops the server at start with a message naming it, so
 * a route can be neither forgotten nor served at a path its file does not
 * show.
 */
import { readdirSync } from "node:fs";
import { join, sep } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { RouteDefinition } from "./http/route.ts";

export const ROUTES_DIR = fileURLToPath(new URL("./routes/", import.meta.url));

/** Every route file, as its path under routes/ with forward slashes, sorted. */
export function routeFiles(dir = ROUTES_DIR): string[] {
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

/** Throws unless `exported` is a non-empty list of routes, all at the file's URL, one per method. */
export function checkRouteFile(file: string, exported: unknown): RouteDefinition[] {
  const where = `packages/server/src/routes/${file}`;
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
/** A route file (its path under routes/) and what it default-exports. */
export type RouteManifest = [file: string, exported: unknown][];
let manifest: RouteManifest | null = null;

/**
 * The built server has no routes/ folder to read: scripts/lib/server-build.mjs
 * lists routeFiles() at build time and bundles a module that imports each of
 * them and calls this first, so the same files are checked by the same rules
 * at start.
 */
export function useRouteManifest(entries: RouteManifest): void {
  manifest = entries;
}

/** Imports every route file once per process (each server instance reuses the table), checked and in registration order. */
export function loadRoutes(): Promise<RouteDefinition[]> {
  loaded ??= manifest ? Promise.resolve(checkedRoutes(manifest)) : loadRoutesFrom(ROUTES_DIR);
  return loaded;
}

export async function loadRoutesFrom(dir: string): Promise<RouteDefinition[]> {
  const files = routeFiles(dir);
  const modules = await Promise.all(files.map((file) => import(pathToFileURL(join(dir, file)).href) as Promise<{ default?: unknown }>));
  return checkedRoutes(files.map((file, i) => [file, modules[i]!.default]));
}

function checkedRoutes(entries: RouteManifest): RouteDefinition[] {
  return entries.flatMap(([file, exported]) => checkRouteFile(file, exported)).sort(compareRoutes);
}
