// How the sandbox's program (sandbox/entry.ts) is bundled, in one place for both
// runtime-bundle.ts (the server run from its TypeScript sources bundles it on
// the first render) and scripts/lib/server-build.mjs (the built server ships it
// prebuilt, so it never starts esbuild for it). Plain JavaScript: the build
// script runs without a TypeScript loader.
import { fileURLToPath } from "node:url";

/** esbuild options: one minified script, React's production build, for QuickJS (ES2023: nothing needs lowering). */
export const runtimeBuildOptions = {
  entryPoints: [fileURLToPath(new URL("./sandbox/entry.ts", import.meta.url))],
  bundle: true,
  format: "iife",
  platform: "browser",
  target: "es2022",
  minify: true,
  define: { "process.env.NODE_ENV": '"production"' },
  logLevel: "silent",
};
