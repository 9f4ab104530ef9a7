/**
 * Vitest global setup: one migrated database per run, which every test
 * server's database starts as a copy of. A new PGlite spends about 2 s in
 * initdb and PostgreSQL about 2 s applying the migrations, against well under
 * a second to copy; and every test file starts at least one server. Migrating
 * here still applies every migration to an empty database, once per run.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import type { TestProject } from "vitest/node";
import { connectDatabase, openPGlite } from "../src/db/connect.ts";
import { migrate } from "../src/db/migrate.ts";
import { dumpTemplate } from "../src/db/pglite-template.ts";

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (project.config.env.LATCHKEY_TEST_DB === "postgres") return postgresTemplate(project);
  return pgliteTemplate(project);
}

async function pgliteTemplate(project: TestProject): Promise<() => Promise<void>> {
  const pglite = await openPGlite();
  const database = await connectDatabase({ kind: "pglite", pglite });
  await migrate(database);
  const dump = await dumpTemplate(pglite, "none");
  await database.close();
  const dir = mkdtempSync(join(tmpdir(), "latchkey-pglite-"));
  const file = join(dir, "migrated.tar");
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  project.provide("pgliteTemplate", file);
  return async () => rmSync(dir, { recursive: true, force: true });
}

async function postgresTemplate(project: TestProject): Promise<() => Promise<void>> {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) throw new Error("LATCHKEY_TEST_DB=postgres needs TEST_DATABASE_URL");
  const name = `latchkey_template_${randomBytes(6).toString("hex")}`;
  const admin = postgres(base, { max: 1, onnotice: () => {} });
  await admin.unsafe(`CREATE DATABASE ${name}`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  // PostgreSQL copies a template only while nobody is connected to it: this connection ends before any test starts.
  const database = await connectDatabase({ kind: "postgres", url: url.toString(), max: 1 });
  await migrate(database);
  await database.close();
  project.provide("postgresTemplate", name);
  return async () => {
    await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  };
}
