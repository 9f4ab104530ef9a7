/**
 * The SDK reaches the API only through `ApiClient.call`, which the endpoint
 * map of @latchkey/shared types end to end; the untyped transport under it
 * (`send`) is for api-client.ts alone.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";

const src = resolve(dirname(fileURLToPath(import.meta.url)), "../../src");

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sources(join(dir, entry.name)) : /\.tsx?$/.test(entry.name) ? [join(dir, entry.name)] : [],
  );
}

it("no SDK file but the HTTP layer sends untyped requests", () => {
  const offenders = sources(src)
    .filter((file) => !file.endsWith(join("interface", "api-client.ts")))
    .filter((file) => /\.send\s*[<(]/.test(readFileSync(file, "utf8")))
    .map((file) => relative(src, file));
  expect(offenders).toEqual([]);
});

it("every endpoint the SDK names is one the contract declares", async () => {
  const { allEndpoints } = await import("@latchkey/shared");
  const declared = new Set(allEndpoints.map((e) => `${e.method} ${e.path}`));
  const named = sources(src).flatMap((file) =>
    [...readFileSync(file, "utf8").matchAll(/\.call\(\s*"([A-Z]+ \/[^"]*)"/g)].map((m) => m[1]!),
  );
  expect(named.length).toBeGreaterThan(20);
  expect(named.filter((key) => !declared.has(key))).toEqual([]);
});
