/**
 * A child process for pglite-fsync.test.ts, run under strace: opens the
 * embedded database as `latchkey start` does (LATCHKEY_DATA_DIR,
 * LATCHKEY_PGLITE_FSYNC), commits argv[2] single-row transactions, and closes.
 */
import { databaseFromEnv } from "../src/config/database.ts";
import { openDatabase } from "../src/process/open-database.ts";

const commits = Number(process.argv[2]);
const database = await openDatabase(databaseFromEnv());
await database.rawTransaction((run) => run("CREATE TABLE IF NOT EXISTS fsync_probe (n integer)"));
for (let n = 0; n < commits; n++) await database.rawTransaction((run) => run(`INSERT INTO fsync_probe VALUES (${n})`));
await database.close();
