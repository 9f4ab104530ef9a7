/**
 * `npm run build` gives plain ESM JavaScript with type declarations that Node
 * imports with no TypeScript tooling, @latchkey/shared bundled in, and that a
 * bundler builds for browsers.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { afterAll, expect, it } from "vitest";

const packageDir = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const requireHere = createRequire(import.meta.url);
/** The build goes to dist/ of a folder whose node_modules holds the package's dependencies, as an install lays them out. */
const installDir = mkdtempSync(join(tmpdir(), "latchkey-js-build-"));
const outDir = join(installDir, "dist");
afterAll(() => rmSync(installDir, { recursive: true, force: true }));

function linkDependencies(): void {
  const { dependencies } = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8")) as { dependencies: Record<string, string> };
  for (const name of Object.keys(dependencies)) {
    const link = join(installDir, "node_modules", name);
    mkdirSync(dirname(link), { recursive: true });
    symlinkSync(installedDir(name), link, "dir");
  }
}

/** Where Node finds a package from packageDir: the nearest node_modules holding it (not every package exports its package.json). */
function installedDir(name: string): string {
  for (let dir = packageDir; ; dir = dirname(dir)) {
    const candidate = join(dir, "node_modules", name);
    if (existsSync(join(candidate, "package.json"))) return candidate;
    if (dirname(dir) === dir) throw new Error(`${name} is not installed`);
  }
}

it("builds ESM with declarations that plain Node can import", { timeout: 120_000 }, () => {
  const tsupCli = join(dirname(requireHere.resolve("tsup/package.json")), "dist/cli-default.js");
  execFileSync(process.execPath, [tsupCli, "--out-dir", outDir], { cwd: packageDir, stdio: "pipe" });
  expect(existsSync(join(outDir, "index.js"))).toBe(true);
  const declarations = readFileSync(join(outDir, "index.d.ts"), "utf8");
  for (const name of ["StackClientApp", "StackServerApp", "StackAdminApp", "KnownErrors", "Result"]) {
    expect(declarations).toContain(name);
  }
  // No import of TypeScript sources or of the workspace package is left.
  const output = readFileSync(join(outDir, "index.js"), "utf8");
  expect(output).not.toMatch(/@latchkey\/shared|\.ts["']/);

  linkDependencies();
  const script = `
    import { createHmac } from "node:crypto";
    const sdk = await import(${JSON.stringify(join(outDir, "index.js"))});
    const app = new sdk.StackClientApp({ projectId: "p", tokenStore: "memory" });
    const body = JSON.stringify({ type: "team.deleted", data: { id: "t-1" } });
    const timestamp = String(Math.floor(Date.now() / 1000));
    const signature = createHmac("sha256", Buffer.from("c2VjcmV0", "base64")).update("msg_1." + timestamp + "." + body).digest("base64");
    const headers = { "svix-id": "msg_1", "svix-timestamp": timestamp, "svix-signature": "v1," + signature };
    console.log(JSON.stringify({
      signIn: app.urls.signIn,
      known: new sdk.KnownErrors.UserNotFound() instanceof sdk.KnownError,
      webhook: sdk.verifyWebhook(body, headers, "whsec_c2VjcmV0"),
    }));
  `;
  const printed = execFileSync(process.execPath, ["--input-type=module", "-e", script], { cwd: tmpdir(), encoding: "utf8" });
  expect(JSON.parse(printed)).toEqual({ signIn: "/handler/sign-in", known: true, webhook: { type: "team.deleted", data: { id: "t-1" } } });
});

it("bundles for browsers: no Node built-in module is among what it imports", async () => {
  // tsup's own esbuild, which fails a browser build on any import of a Node built-in.
  const esbuildPath = requireHere.resolve("esbuild", { paths: [dirname(requireHere.resolve("tsup/package.json"))] });
  const esbuild = requireHere(esbuildPath) as {
    build(options: object): Promise<{ metafile: { inputs: Record<string, unknown> } }>;
  };
  const result = await esbuild.build({
    stdin: { contents: 'export { StackClientApp, verifyWebhook } from "./dist/index.js";', resolveDir: installDir },
    bundle: true,
    platform: "browser",
    format: "esm",
    write: false,
    logLevel: "silent",
    metafile: true,
  });
  // The webhook verifier's package is bundled too (it reaches no Node module either).
  expect(Object.keys(result.metafile.inputs).some((input) => input.includes("node_modules/standardwebhooks/"))).toBe(true);
});

it("declares its types on their own: an app type-checks against them with zod installed and nothing else", { timeout: 120_000 }, () => {
  const declarations = readFileSync(join(outDir, "index.d.ts"), "utf8");
  const imports = [...declarations.matchAll(/^import .* from ['"]([^'"]+)['"];?$/gm)].map((m) => m[1]);
  expect(imports.filter((from) => from !== "zod")).toEqual([]);

  // A project outside the repository: the built package and zod in its node_modules, strict TypeScript.
  const app = mkdtempSync(join(tmpdir(), "latchkey-js-consumer-"));
  try {
    const packageDir = join(app, "node_modules", "@latchkey", "js");
    mkdirSync(packageDir, { recursive: true });
    cpSync(outDir, packageDir, { recursive: true });
    writeFileSync(
      join(packageDir, "package.json"),
      JSON.stringify({
        name: "@latchkey/js",
        type: "module",
        types: "./index.d.ts",
        exports: { ".": { types: "./index.d.ts", default: "./index.js" } },
      }),
    );
    symlinkSync(dirname(createRequire(import.meta.url).resolve("zod/package.json")), join(app, "node_modules", "zod"), "dir");
    writeFileSync(
      join(app, "app.ts"),
      [
        'import { KnownErrors, StackClientApp, verifyWebhook } from "@latchkey/js";',
        'const app = new StackClientApp({ projectId: "p", tokenStore: "memory" });',
        "export async function rename(): Promise<string | null> {",
        '  const user = await app.getUser({ or: "throw" });',
        '  await user.update({ displayName: "Ada", clientMetadata: { plan: "pro" } });',
        "  // @ts-expect-error not a field a user may change",
        "  await user.update({ serverMetadata: {} });",
        "  return user.displayName;",
        "}",
        "export async function teams(): Promise<boolean> {",
        '  const user = await app.getUser({ or: "throw" });',
        '  const team = await user.createTeam({ displayName: "Crew" });',
        '  await team.inviteUser({ email: "bo@example.com", callbackUrl: "https://app.example/handler/team-invitation" });',
        "  const members: string[] = (await team.listUsers()).map((member) => member.teamProfile.displayName ?? member.id);",
        "  // @ts-expect-error a client's team has no server metadata",
        "  void team.serverMetadata;",
        '  const joined = await app.acceptTeamInvitation("code");',
        '  return joined.status === "ok" && members.length > 0 && (await user.hasPermission(team, "$invite_members"));',
        "}",
        "export function onDelivery(body: string, headers: Record<string, string | string[] | undefined>): string | null {",
        '  const event = verifyWebhook(body, headers, "whsec_c2VjcmV0");',
        '  if (event.type === "user.created") return event.data.primary_email;',
        "  // @ts-expect-error a deleted team's event has only its id",
        '  if (event.type === "team.deleted") return event.data.display_name;',
        "  return event.type;",
        "}",
        "export function emailOf(error: unknown): string | null {",
        "  return error instanceof KnownErrors.UserWithEmailAlreadyExists ? error.details.email : null;",
        "}",
      ].join("\n"),
    );
    writeFileSync(
      join(app, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          module: "nodenext",
          moduleResolution: "nodenext",
          target: "es2022",
          lib: ["es2023", "dom"],
          skipLibCheck: false,
          types: [],
        },
        files: ["app.ts"],
      }),
    );
    writeFileSync(join(app, "package.json"), JSON.stringify({ type: "module" }));
    const tsc = join(dirname(createRequire(import.meta.url).resolve("typescript/package.json")), "bin", "tsc");
    const result = spawnSync(process.execPath, [tsc, "-p", app], { encoding: "utf8" });
    expect(result.stdout + result.stderr).toBe("");
    expect(result.status).toBe(0);
  } finally {
    rmSync(app, { recursive: true, force: true });
  }
});
