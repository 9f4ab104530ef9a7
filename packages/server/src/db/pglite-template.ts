/**
 * The built server ships a migrated, empty data directory (a tarball made at
 * build time by scripts/lib/server-build.mjs, which defines
 * LATCHKEY_PGLITE_TEMPLATE as its path next to the bundle). A new data
 * directory starts as a copy of it: PGlite's initdb and the migrations it
 * holds are the most of a first start's time. Run from the sources there is
 * no template, and the first start runs initdb and the migrations.
 *
 * The files are written here, with node's gunzip and plain file writes, before
 * PGlite opens the directory: PGlite's own loadDataDir writes them through its
 * emulated file system, several times slower (BENCHMARKS.md, footprint).
 * PG_VERSION is written last. PostgreSQL takes a directory holding it for a
 * database, so a start killed half-way leaves one without it, and the next
 * start unpacks the template again over what is there.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { gunzipSync } from "node:zlib";
import type { PGlite } from "@electric-sql/pglite";
import { unpackTar } from "modern-tar";

declare const LATCHKEY_PGLITE_TEMPLATE: string | undefined;

/** The file whose presence makes a directory a database. */
const VERSION_FILE = "PG_VERSION";
/** The lock file of the server that made the template: meaningless anywhere else. */
const LEFT_OUT = new Set(["postmaster.pid"]);

/** Unpacks the template into `dataDir` unless it holds a database already (or there is no template). */
export async function seedFromTemplate(dataDir: string): Promise<void> {
  if (typeof LATCHKEY_PGLITE_TEMPLATE !== "string" || existsSync(join(dataDir, VERSION_FILE))) return;
  const entries = await unpackTar(gunzipSync(readFileSync(new URL(LATCHKEY_PGLITE_TEMPLATE, import.meta.url))));
  const root = resolve(dataDir);
  let version: { path: string; data: Uint8Array; mode: number } | null = null;
  for (const { header, data } of entries) {
    const name = header.name.replace(/^\/+/, "");
    if (!name || LEFT_OUT.has(name)) continue;
    const path = resolve(root, name);
    if (relative(root, path).startsWith(`..${sep}`))
      throw new Error(`The PGlite template names a file outside its directory: ${header.name}`);
    if (header.type === "directory") {
      mkdirSync(path, { recursive: true, mode: header.mode || 0o700 });
      continue;
    }
    if (header.type !== "file") continue;
    const file = { path, data: data ?? new Uint8Array(), mode: header.mode || 0o600 };
    if (name === VERSION_FILE) {
      version = file;
      continue;
    }
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    writeFileSync(path, file.data, { mode: file.mode });
  }
  if (!version) throw new Error(`The PGlite template has no ${VERSION_FILE}: rebuild the server (npm run build).`);
  writeFileSync(version.path, version.data, { mode: version.mode });
}

/**
 * A dump of `pglite` to start new databases from (the build's template, the
 * tests' per-run template). PGlite works in the database named postgres; the
 * template databases initdb also makes (template0, template1: what CREATE
 * DATABASE copies, which an embedded database never runs) are dropped first.
 * They were 15 of the dump's 40 MB, and every copy unpacks the whole dump.
 */
export async function dumpTemplate(pglite: PGlite, compression: "gzip" | "none"): Promise<Blob> {
  await pglite.exec("UPDATE pg_database SET datistemplate = false WHERE datname IN ('template0', 'template1')");
  // One statement per call: DROP DATABASE cannot run in the implicit transaction of a multi-statement string.
  await pglite.exec("DROP DATABASE template0");
  await pglite.exec("DROP DATABASE template1");
  await pglite.exec("CHECKPOINT");
  return pglite.dumpDataDir(compression);
}
