// What the builds started by `npm start` compare to decide whether to run: a hash of each source file's
// path, size and modification time. Reading names and times only keeps a start with nothing to build fast.
import { createHash } from "node:crypto";
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";

/** The fingerprint of `sources` (files or folders, relative to `root`; a missing one counts as absent). */
export function sourcesFingerprint(root, sources) {
  const hash = createHash("sha256");
  const walk = (path) => {
    const stat = statSync(path, { throwIfNoEntry: false });
    if (!stat) return;
    if (stat.isDirectory()) {
      for (const name of readdirSync(path).sort()) walk(join(path, name));
    } else {
      hash.update(`${path}\0${stat.size}\0${stat.mtimeMs}\n`);
    }
  };
  for (const source of sources) walk(join(root, source));
  return hash.digest("hex");
}
