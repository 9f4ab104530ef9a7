/**
 * The sandbox's program (sandbox/entry.ts: React, its server renderer, the
 * React Email components) as one script, once per process. The built server
 * ships it prebuilt (scripts/lib/server-build.mjs defines
 * LATCHKEY_PREBUILT_SANDBOX_RUNTIME, the file's path next to the bundle); run
 * from the TypeScript sources it is bundled here on first use, and esbuild's
 * service is stopped once that is done, as this worker needs it only once.
 */
import { readFile } from "node:fs/promises";
import { runtimeBuildOptions } from "./runtime-options.mjs";

declare const LATCHKEY_PREBUILT_SANDBOX_RUNTIME: string | undefined;

let bundle: Promise<string> | null = null;

/** The script, read or built on first use; a failure is retried on the next call. */
export function runtimeBundle(): Promise<string> {
  bundle ??= (
    typeof LATCHKEY_PREBUILT_SANDBOX_RUNTIME === "string"
      ? readFile(new URL(LATCHKEY_PREBUILT_SANDBOX_RUNTIME, import.meta.url), "utf8")
      : buildBundle()
  ).catch((error: unknown) => {
    bundle = null;
    throw error;
  });
  return bundle;
}

async function buildBundle(): Promise<string> {
  const { build, stop } = await import("esbuild");
  try {
    const result = await build({ ...runtimeBuildOptions, write: false });
    return result.outputFiles[0]!.text;
  } finally {
    await stop();
  }
}
