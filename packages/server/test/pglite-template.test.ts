/**
 * A new data directory of the built server starts as a copy of the migrated
 * template shipped with the build (db/pglite-template.ts). Built or not, the
 * copy must open as the database it was, a directory holding a database is
 * never written over, and a copy cut short (no PG_VERSION: it is written
 * last) is made again whole by the next start.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectDatabase, openPGlite } from "../src/db/connect.ts";
import { dumpTemplate, seedFromTemplate } from "../src/db/pglite-template.ts";

const globals = globalThis as { LATCHKEY_PGLITE_TEMPLATE?: string };
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "latchkey-template-test-"));
  // A template as the build makes one (scripts/lib/server-build.mjs): a database dumped with a table in it.
  const pglite = await openPGlite();
  await pglite.exec("CREATE TABLE kept (id int PRIMARY KEY); INSERT INTO kept VALUES (7);");
  const tarball = await dumpTemplate(pglite, "gzip");
  await pglite.close();
  const file = join(dir, "template.tar.gz");
  writeFileSync(file, Buffer.from(await tarball.arrayBuffer()));
  // The build defines this name for the bundle; run from the sources, it is a global like any other.
  globals.LATCHKEY_PGLITE_TEMPLATE = file;
});

afterAll(() => {
  delete globals.LATCHKEY_PGLITE_TEMPLATE;
  rmSync(dir, { recursive: true, force: true });
});

async function keptRows(dataDir: string): Promise<unknown[]> {
  const database = await connectDatabase({ kind: "pglite", dataDir });
  try {
    return await database.rawTransaction((run) => run("SELECT id FROM kept"));
  } finally {
    await database.close();
  }
}

describe("a new data directory from the template", () => {
  it("opens as the database the template holds, without the template's lock file", async () => {
    const dataDir = join(dir, "fresh");
    expect(await keptRows(dataDir)).toEqual([{ id: 7 }]);
    expect(existsSync(join(dataDir, "PG_VERSION"))).toBe(true);
    expect(existsSync(join(dataDir, "postmaster.pid"))).toBe(false);
  });

  it("never writes over a directory that holds a database", async () => {
    const dataDir = join(dir, "in-use");
    await keptRows(dataDir);
    const database = await connectDatabase({ kind: "pglite", dataDir });
    await database.rawTransaction((run) => run("INSERT INTO kept VALUES (8)"));
    await database.close();
    await seedFromTemplate(dataDir);
    expect(await keptRows(dataDir)).toEqual([{ id: 7 }, { id: 8 }]);
  });

  it("unpacks again, whole, over a copy cut short before its PG_VERSION", async () => {
    const dataDir = join(dir, "cut-short");
    await seedFromTemplate(dataDir);
    const control = join(dataDir, "global", "pg_control");
    const whole = readFileSync(control);
    rmSync(join(dataDir, "PG_VERSION"));
    writeFileSync(control, "half-written");
    expect(await keptRows(dataDir)).toEqual([{ id: 7 }]);
    expect(readFileSync(control).equals(whole)).toBe(false); // PostgreSQL has run on it since
    expect(readFileSync(join(dataDir, "PG_VERSION"), "utf8").trim()).toMatch(/^\d+$/);
  });
});
