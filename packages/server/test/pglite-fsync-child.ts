/**
 * A child process for pglite-fsync.test.ts, run under strace: opens the
 * embedded database as `latchkey start` does (LATCHKEY_DATA_DIR,
 * LATCHKEY_PGLITE_FSYNC), commits argv[2] single-row transactions, and closes.
 * With argv[3], a gzipped template, a new directory starts as its copy, as in the built server.
 */
import { databaseFromEnv } from "../src/config/database.ts";
import { openDatabase } from "../src/process/open-database.ts";

const commits = Number(process.argv[2]);
// The build defines this name for the bundle; run from the sources, it is a global like any other.
if (process.argv[3]) (globalThis as { LATCHKEY_PGLITE_TEMPLATE?: string }).LATCHKEY_PGLITE_TEMPLATE = process.argv[3];
const database = await openDatabase(databaseFromEnv());
await database.rawTransaction((run) => run("CREATE TABLE IF NOT EXISTS fsync_probe (n integer)"));
for (let n = 0; n < commits; n++) await database.rawTransaction((run) => run(`INSERT INTO fsync_probe VALUES (${n})`));
await database.close();
