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
  const kind = project.config.env.LATCHKEY_TEST_DB === "postgres" ? "postgres" : "pglite";
  const template = sharedTemplate(kind);
  const made = await template.made;
  project.provide(kind === "postgres" ? "postgresTemplate" : "pgliteTemplate", made.value);
  return async () => {
    template.users -= 1;
    if (template.users === 0) {
      templates.delete(kind);
      await made.remove();
    }
  };
}

interface Template {
  /** The template database's name (PostgreSQL) or the dumped directory's file (PGlite). */
  value: string;
  remove(): Promise<void>;
}

/**
 * One template per kind of database for the whole run, whichever projects ask (the server's, the SDK's, the
 * browser tests'): vitest runs the projects' global set-ups one after another before the first test, and each
 * migration from an empty database cost seconds of that. Kept on globalThis, which every project's set-up shares
 * in vitest's main process, and removed when the last project that asked for it is torn down.
 */
const templates: Map<string, { made: Promise<Template>; users: number }> = ((
  globalThis as { latchkeyDatabaseTemplates?: Map<string, { made: Promise<Template>; users: number }> }
).latchkeyDatabaseTemplates ??= new Map());

function sharedTemplate(kind: "pglite" | "postgres"): { made: Promise<Template>; users: number } {
  let template = templates.get(kind);
  if (!template) {
    template = { made: kind === "postgres" ? postgresTemplate() : pgliteTemplate(), users: 0 };
    templates.set(kind, template);
  }
  template.users += 1;
  return template;
}

async function pgliteTemplate(): Promise<Template> {
  const pglite = await openPGlite();
  const database = await connectDatabase({ kind: "pglite", pglite });
  await migrate(database);
  const dump = await dumpTemplate(pglite, "none");
  await database.close();
  const dir = mkdtempSync(join(tmpdir(), "latchkey-pglite-"));
  const file = join(dir, "migrated.tar");
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  return { value: file, remove: async () => rmSync(dir, { recursive: true, force: true }) };
}

async function postgresTemplate(): Promise<Template> {
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
  return {
    value: name,
    remove: async () => {
      await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}
