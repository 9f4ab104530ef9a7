/**
 * Bundles the sandbox's program (sandbox/entry.ts: React, its server
 * renderer, the React Email components) into one script, once per process.
 */
import { build } from "esbuild";
import { fileURLToPath } from "node:url";

let bundle: Promise<string> | null = null;

/** The script, built on first use; a failed build is retried on the next call. */
export function runtimeBundle(): Promise<string> {
  bundle ??= buildBundle().catch((error: unknown) => {
    bundle = null;
    throw error;
  });
  return bundle;
}

async function buildBundle(): Promise<string> {
  const result = await build({
    entryPoints: [fileURLToPath(new URL("./sandbox/entry.ts", import.meta.url))],
    bundle: true,
    write: false,
    format: "iife",
    platform: "browser",
    // QuickJS implements ES2023; nothing needs lowering.
    target: "es2022",
    minify: true,
    // The production builds of React: smaller and faster, with the same behaviour.
    define: { "process.env.NODE_ENV": '"production"' },
    logLevel: "silent",
  });
  return result.outputFiles[0]!.text;
}
