// The SDK's packages, built and packed as `npm publish` would ship them, for the server to serve at
// /sdk/latchkey-js.tgz and /sdk/latchkey-react.tgz (LATCHKEY_SDK_DIR): an app installs them from the
// server it talks to. `npm start` packs them here when their sources changed since the last time, so a
// fresh clone needs no extra command and later starts cost nothing. Each package is built by its own
// tsup (`npm run build`) and packed by `npm pack`, in child processes.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { sourcesFingerprint } from "./fingerprint.mjs";
import { repoRoot } from "./latchkey-server.mjs";

/**
 * Where the tarballs go: dist/sdk at the repository's root, or LATCHKEY_SDK_OUT (the test suite packs
 * elsewhere, so its builds never replace the files a running `npm start` is serving).
 */
export const sdkPackedDir = process.env.LATCHKEY_SDK_OUT || join(repoRoot, "dist", "sdk");
/** The fingerprint of the sources the tarballs were made from (a dotfile: the server serves only the two names). */
const STAMP = join(sdkPackedDir, ".sources");

/** Each package's folder and the name its tarball is served under (packages/server/src/http/sdk-packages.ts). */
export const SDK_PACKAGES = [
  { dir: "packages/js", tarball: "latchkey-js.tgz" },
  { dir: "packages/react", tarball: "latchkey-react.tgz" },
];

/** Everything the tarballs are made of: @latchkey/shared is bundled into @latchkey/js. */
const SOURCES = [
  ...SDK_PACKAGES.flatMap(({ dir }) =>
    ["src", "package.json", "tsup.config.ts", "tsconfig.json", "README.md", "LICENSE"].map((file) => `${dir}/${file}`),
  ),
  "packages/shared/src",
  "packages/shared/package.json",
  "tsconfig.base.json",
  "package-lock.json",
  "scripts/lib/sdk-build.mjs",
];

/** True when sdkPackedDir holds both tarballs, packed from the current sources. */
export function sdkPackedIsCurrent() {
  return (
    existsSync(STAMP) &&
    readFileSync(STAMP, "utf8") === sourcesFingerprint(repoRoot, SOURCES) &&
    SDK_PACKAGES.every(({ tarball }) => existsSync(join(sdkPackedDir, tarball)))
  );
}

/** Builds and packs both packages into sdkPackedDir unless they are of the current sources; returns the directory. */
export async function ensureSdkPacked({ log = console.log } = {}) {
  if (sdkPackedIsCurrent()) return sdkPackedDir;
  const wanted = sourcesFingerprint(repoRoot, SOURCES);
  log("  Building and packing the SDK, @latchkey/js and @latchkey/react (only when their sources changed)…");
  // The two builds are independent (each reads the other's sources, not its build), so they run side by side.
  await Promise.all(SDK_PACKAGES.map(({ dir }) => run("npm", ["run", "build"], join(repoRoot, dir))));
  mkdirSync(sdkPackedDir, { recursive: true });
  // Packed beside the served files, then renamed over them: a running server never reads half a tarball.
  const staging = mkdtempSync(join(sdkPackedDir, ".packing-"));
  try {
    for (const { dir, tarball } of SDK_PACKAGES) {
      // Built just above: the prepack script (the same build, for `npm publish`) need not run again.
      await run("npm", ["pack", "--ignore-scripts", "--pack-destination", staging], join(repoRoot, dir));
      const [packed, ...others] = readdirSync(staging);
      if (!packed || others.length > 0)
        throw new Error(`npm pack in ${dir} left ${readdirSync(staging).join(", ") || "nothing"} in ${staging}.`);
      renameSync(join(staging, packed), join(sdkPackedDir, tarball));
    }
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  writeFileSync(STAMP, wanted);
  return sdkPackedDir;
}

/** Runs a command to its end; its output is shown only when it fails. */
function run(command, args, cwd) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, stdio: ["ignore", "pipe", "pipe"] });
    const output = [];
    child.stdout.on("data", (chunk) => output.push(chunk));
    child.stderr.on("data", (chunk) => output.push(chunk));
    child.on("error", reject);
    child.on("close", (code, signal) => {
      if (code === 0) resolve();
      else
        reject(
          new Error(
            `\`${command} ${args.join(" ")}\` in ${cwd} failed (${signal ?? `exit code ${code}`}):\n${Buffer.concat(output).toString()}`,
          ),
        );
    });
  });
}
