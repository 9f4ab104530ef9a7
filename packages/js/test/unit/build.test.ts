/**
 * `npm run build` gives plain ESM JavaScript with type declarations that Node
 * imports with no TypeScript tooling, @latchkey/shared bundled in.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { afterAll, expect, it } from "vitest";

const packageDir = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const outDir = mkdtempSync(join(tmpdir(), "latchkey-js-build-"));
afterAll(() => rmSync(outDir, { recursive: true, force: true }));

it("builds ESM with declarations that plain Node can import", { timeout: 120_000 }, () => {
  const tsupCli = join(dirname(createRequire(import.meta.url).resolve("tsup/package.json")), "dist/cli-default.js");
  execFileSync(process.execPath, [tsupCli, "--out-dir", outDir], { cwd: packageDir, stdio: "pipe" });
  expect(existsSync(join(outDir, "index.js"))).toBe(true);
  const declarations = readFileSync(join(outDir, "index.d.ts"), "utf8");
  for (const name of ["StackClientApp", "StackServerApp", "StackAdminApp", "KnownErrors", "Result"]) {
    expect(declarations).toContain(name);
  }
  // No import of TypeScript sources or of the workspace package is left.
  const output = readFileSync(join(outDir, "index.js"), "utf8");
  expect(output).not.toMatch(/@latchkey\/shared|\.ts["']/);

  const script = `
    const sdk = await import(${JSON.stringify(join(outDir, "index.js"))});
    const app = new sdk.StackClientApp({ projectId: "p", tokenStore: "memory" });
    console.log(JSON.stringify({ signIn: app.urls.signIn, known: new sdk.KnownErrors.UserNotFound() instanceof sdk.KnownError }));
  `;
  const printed = execFileSync(process.execPath, ["--input-type=module", "-e", script], { cwd: tmpdir(), encoding: "utf8" });
  expect(JSON.parse(printed)).toEqual({ signIn: "/handler/sign-in", known: true });
});
