// The built server: packages/server/src bundled by esbuild into plain
// JavaScript, so `npm start` loads no TypeScript compiler. Built when its
// sources changed (a fingerprint, as for the dashboard), by scripts/build.mjs.
//
// What goes where in the output directory:
// - main.js            the server (`node main.js start|migrate`): our code and
//                      @latchkey/shared (TypeScript source only) bundled in, with
//                      a route manifest instead of reading the route folders at run time;
// - worker.mjs         the e-mail sandbox's worker thread (render/client.ts
//                      starts ./worker.mjs next to itself, as in the sources);
// - workflow-worker.mjs  a workflow run's worker thread (capabilities/workflows/
//                      domain/sandbox/client.ts starts ./workflow-worker.mjs next to itself);
// - sandbox-runtime.js the sandbox's program, prebuilt, so the worker never
//                      starts esbuild to bundle it;
// - migrations/        the SQL files, found next to the bundle as db/migrate.ts
//                      finds them next to itself;
// - pglite-template.tar.gz  an empty PGlite data directory with every migration
//                      applied, which a new data directory starts from (db/connect.ts).
// Packages with native or WebAssembly parts, or files they read at run time,
// stay in node_modules (EXTERNAL); the rest is bundled, which starts faster
// than resolving and loading hundreds of modules.
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { sourcesFingerprint } from "./fingerprint.mjs";

/** The repository (not imported from latchkey-server.mjs, which imports this module). */
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");

export const serverRoot = join(repoRoot, "packages", "server");
/** Where the build goes: packages/server/dist, or LATCHKEY_SERVER_OUT (the test builds elsewhere, so it never replaces a running server's files). */
export const serverDist = process.env.LATCHKEY_SERVER_OUT || join(serverRoot, "dist");
const src = join(serverRoot, "src");
/** The fingerprint of the sources the build was made from. */
const STAMP = ".sources";

/** Everything the build is made of, this file included (its options shape the output). */
const SOURCES = [
  "packages/server/src",
  "packages/server/package.json",
  "packages/shared/src",
  "package-lock.json",
  "scripts/lib/server-build.mjs",
];

/**
 * Kept out of the bundle: native addons (@node-rs/argon2, esbuild's binary),
 * WebAssembly engines that load their .wasm/.data files relative to
 * themselves (PGlite, QuickJS), and pino, whose worker-thread transports are
 * files of its own. A package also covers its subpaths.
 */
const EXTERNAL = [
  "@electric-sql/pglite",
  "@node-rs/argon2",
  "@jitl/quickjs-wasmfile-release-sync",
  "quickjs-emscripten-core",
  "esbuild",
  "pino",
];

/** The sandbox runtime's file, next to the worker; runtime-bundle.ts reads it when this name is defined. */
const SANDBOX_RUNTIME = "sandbox-runtime.js";
/** The migrated data directory's file, next to main.js; db/connect.ts reads it when this name is defined. */
const PGLITE_TEMPLATE = "pglite-template.tar.gz";

function fingerprint() {
  return sourcesFingerprint(repoRoot, SOURCES);
}

/** True when `outDir` holds a build of the current sources. */
export function serverBuildIsCurrent(outDir = serverDist) {
  const stamp = join(outDir, STAMP);
  return existsSync(stamp) && readFileSync(stamp, "utf8") === fingerprint() && existsSync(join(outDir, "main.js"));
}

/**
 * The module the bundle evaluates before main.ts: every route file (routes/
 * and each registered capability's routes/), imported statically, handed to
 * route-table.ts. The list is route-table.ts's own allRouteFiles() (loaded
 * through tsx, at build time only), so a file is routed by the same rule
 * built or not, and checkRouteTable judges it at start.
 */
async function routeManifestModule() {
  const { tsImport } = await import("tsx/esm/api");
  const { allRouteFiles } = await tsImport(join(src, "route-table.ts"), import.meta.url);
  const files = allRouteFiles();
  return [
    'import { useRouteManifest } from "./route-table.ts";',
    ...files.map(({ dir, file }, i) => `import route${i} from ${JSON.stringify(`./${dir}/${file}`)};`),
    `useRouteManifest([${files.map(({ dir, file }, i) => `[${JSON.stringify(dir)}, ${JSON.stringify(file)}, route${i}]`).join(", ")}]);`,
  ].join("\n");
}

/**
 * A fresh in-memory PGlite, migrated by the server's own code (through tsx, at
 * build time only) and dumped. Nothing else goes in: keys and secrets are
 * made by each server at its first start.
 */
async function writePgliteTemplate(outFile) {
  const { tsImport } = await import("tsx/esm/api");
  const { connectDatabase, openPGlite } = await tsImport(join(src, "db", "connect.ts"), import.meta.url);
  const { migrate } = await tsImport(join(src, "db", "migrate.ts"), import.meta.url);
  const { dumpTemplate } = await tsImport(join(src, "db", "pglite-template.ts"), import.meta.url);
  const pglite = await openPGlite();
  const database = await connectDatabase({ kind: "pglite", pglite });
  await migrate(database);
  const tarball = await dumpTemplate(pglite, "gzip");
  await database.close();
  writeFileSync(outFile, Buffer.from(await tarball.arrayBuffer()));
}

/** Two virtual modules: the entry (manifest first, so it is in place when main.ts starts the server) and the manifest. */
function entryPlugin(manifest) {
  return {
    name: "latchkey-server-entry",
    setup(build) {
      build.onResolve({ filter: /^latchkey:/ }, (args) => ({ path: args.path, namespace: "latchkey" }));
      build.onLoad({ filter: /.*/, namespace: "latchkey" }, (args) => ({
        contents: args.path === "latchkey:main" ? 'import "latchkey:route-manifest";\nimport "./main.ts";' : manifest,
        resolveDir: src,
        loader: "ts",
      }));
    },
  };
}

/**
 * zod's `z` namespace re-exports every locale's error messages (about 360 KB,
 * nearly half of zod in the bundle), so none can be left out by tree-shaking,
 * and the server parses them at every start. The API's messages are English
 * (@latchkey/shared), so the namespaces (z.locales, z.core.locales) keep English alone.
 */
function zodEnglishOnly() {
  return {
    name: "zod-english-only",
    setup(build) {
      build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
        /[\\/]zod[\\/]v4[\\/](classic|core)[\\/]/.test(args.importer)
          ? { path: resolve(dirname(args.importer), "..", "locales", "en.js"), namespace: "zod-locales" }
          : undefined,
      );
      build.onLoad({ filter: /.*/, namespace: "zod-locales" }, (args) => ({
        contents: `export { default as en } from ${JSON.stringify(args.path)};`,
        resolveDir: dirname(args.path),
        loader: "js",
      }));
    },
  };
}

/** Builds the server into `outDir` (replacing what was there) in this process; scripts/build.mjs runs it in a child. */
export async function buildServer({ outDir = serverDist } = {}) {
  const esbuild = await import("esbuild");
  const { runtimeBuildOptions } = await import("../../packages/server/src/domain/emails/render/runtime-options.mjs");
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  const common = {
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    // Workspace packages are TypeScript sources under this private condition (see vitest.config.ts).
    conditions: ["latchkey-source"],
    external: EXTERNAL,
    // CommonJS dependencies bundled into an ES module still call require() for Node's built-ins.
    banner: { js: 'import { createRequire as __latchkeyRequire } from "node:module"; const require = __latchkeyRequire(import.meta.url);' },
    define: {
      LATCHKEY_PREBUILT_SANDBOX_RUNTIME: JSON.stringify(`./${SANDBOX_RUNTIME}`),
      LATCHKEY_PGLITE_TEMPLATE: JSON.stringify(`./${PGLITE_TEMPLATE}`),
    },
    sourcemap: "linked",
    legalComments: "none",
    logLevel: "warning",
  };
  await Promise.all([
    esbuild.build({
      ...common,
      entryPoints: { main: "latchkey:main" },
      outdir: outDir,
      // What the server loads only when first used (passkeys' WebAuthn library, nodemailer) goes to chunks of
      // its own next to main.js (a chunk may read files relative to itself, as main.js does), so a start does not
      // parse or evaluate it.
      splitting: true,
      plugins: [entryPlugin(await routeManifestModule()), zodEnglishOnly()],
    }),
    esbuild.build({
      ...common,
      entryPoints: [join(src, "domain", "emails", "render", "worker.ts")],
      outfile: join(outDir, "worker.mjs"),
    }),
    esbuild.build({
      ...common,
      entryPoints: [join(src, "capabilities", "workflows", "domain", "sandbox", "worker.ts")],
      outfile: join(outDir, "workflow-worker.mjs"),
    }),
    esbuild.build({ ...runtimeBuildOptions, outfile: join(outDir, SANDBOX_RUNTIME) }),
    writePgliteTemplate(join(outDir, PGLITE_TEMPLATE)),
  ]);
  cpSync(join(src, "db", "migrations"), join(outDir, "migrations"), {
    recursive: true,
    filter: (path) => !path.includes(`${join("migrations", "meta")}`),
  });
  writeFileSync(join(outDir, STAMP), fingerprint());
  return outDir;
}

/**
 * Builds the server unless it is current, in a child process (scripts/build.mjs
 * server), so what the build loads is not kept by the caller, which goes on
 * to run it. Returns the path of main.js.
 */
export function ensureServerBuilt() {
  if (!serverBuildIsCurrent()) {
    const result = spawnSync(process.execPath, [join(repoRoot, "scripts", "build.mjs"), "server"], { stdio: "inherit" });
    if (result.status !== 0) throw new Error("Building the server failed (see above).");
  }
  return join(serverDist, "main.js");
}
