#!/usr/bin/env node
/**
 * latchkey start    serve the API (PGlite in LATCHKEY_DATA_DIR unless DATABASE_URL)
 * latchkey migrate  apply pending migrations and exit
 * latchkey vault-rotate  re-wrap every data vault data key under the first of
 *                   LATCHKEY_DATA_VAULT_SECRETS, and exit (README: "Rotating the data vault's key")
 *
 * A start checks what it can before it changes anything, in this order: the
 * variables (config.ts), the data directory's lock (one process per PGlite
 * directory), the port, the database; a failure is one sentence and exit code 1
 * (process/startup-error.ts).
 */
import type { Logger } from "pino";
import { configFromEnv, type EnvConfig, type ServerConfig } from "./config.ts";
import { databaseFromEnv } from "./config/database.ts";
import { productionFromEnv } from "./config/production.ts";
import { MIN_SERVER_SECRET_LENGTH } from "./config/secrets.ts";
import type { Database } from "./db/connect.ts";
import { migrate } from "./db/migrate.ts";
import { dataVaultSealerOf } from "./capabilities/data-vault/domain/local-sealer.ts";
import { rotateDataVaultKeys } from "./capabilities/data-vault/domain/rotate.ts";
import { rotateStripeOwnKeys } from "./capabilities/payments/domain/stripe-account.ts";
import { logProductionStart, printBanner } from "./process/announce.ts";
import { devServerSecret } from "./process/data-dir.ts";
import { lockDataDir, type DataDirLock } from "./process/data-dir-lock.ts";
import { devKeys } from "./process/dev-keys.ts";
import { listenEarly } from "./process/listen.ts";
import { logFormatFromEnv, processLogger } from "./process/logger.ts";
import { openDatabase } from "./process/open-database.ts";
import { reportStartupFailure } from "./process/startup-error.ts";
import { startInstance } from "./server.ts";

const command = process.argv[2] ?? "start";
if (command !== "start" && command !== "migrate" && command !== "vault-rotate") {
  console.error(`Unknown command ${JSON.stringify(command)}. Use: start | migrate | vault-rotate`);
  process.exit(2);
}

/** Undone in reverse order when the start fails or the process is stopped. */
const undo: (() => Promise<void> | void)[] = [];
let lock: DataDirLock | null = null;
// Whatever way the process ends, the data directory is free again (release is synchronous).
process.on("exit", () => lock?.release());

let logger: Logger | null = null;
/** Set by a signal: what fails afterwards is the stop closing things under the start, not a start-up failure. */
let stopping = false;
try {
  if (command === "migrate") await migrateCommand();
  else if (command === "vault-rotate") await vaultRotateCommand();
  else await startCommand();
} catch (error) {
  if (stopping) await new Promise(() => {}); // the signal's handler exits
  reportStartupFailure(error, productionFromEnv(), logger);
  await undoAll();
  process.exit(1);
}

async function startCommand(): Promise<void> {
  const fromEnv = configFromEnv();
  logger = await processLogger(logFormatFromEnv(process.env, fromEnv.production));
  const log = logger;
  stopOn(["SIGINT", "SIGTERM"]);
  takeLock(fromEnv, fromEnv.port);
  const http = await listenEarly(fromEnv.port, process.env.HOST ?? "0.0.0.0");
  undo.push(() => http.close());
  const config: ServerConfig = { ...fromEnv, serverSecret: fromEnv.serverSecret ?? devServerSecret(fromEnv.dataDir) };
  if (fromEnv.serverSecret !== null && fromEnv.serverSecret.length < MIN_SERVER_SECRET_LENGTH) {
    log.warn(`STACK_SERVER_SECRET is shorter than ${MIN_SERVER_SECRET_LENGTH} characters: production mode would refuse it.`);
  }
  const database = await openedDatabase(fromEnv);
  const instance = await startInstance(config, { database, logger: log, holdsDataDirLock: lock !== null });
  undo.pop(); // the instance closes the database from now on
  undo.push(() => instance.close());
  const dashboard = instance.services.dashboard;
  if (config.production) {
    http.serve(instance.app.fetch);
    logProductionStart(log, config, Boolean(dashboard));
  } else {
    const keys = await devKeys(instance.services.db, config, instance.services.clock.date());
    dashboard?.setPublishableClientKey(keys.publishable_client_key ?? null);
    http.serve(instance.app.fetch);
    printBanner(config, Boolean(dashboard), keys);
  }
}

async function migrateCommand(): Promise<void> {
  const where = databaseFromEnv();
  takeLock(where, null);
  const database = await openedDatabase(where);
  const applied = await migrate(database);
  const message = applied.length ? `Applied: ${applied.join(", ")}` : "Database is up to date.";
  if (productionFromEnv()) (await processLogger("json")).info({ applied }, message);
  else console.log(message);
  await database.close();
  undo.pop();
}

/**
 * The servers must already list the new secret first (and the old ones after it): they then read both while
 * this runs. On PGlite the server is stopped meanwhile (one process per data directory).
 */
async function vaultRotateCommand(): Promise<void> {
  const fromEnv = configFromEnv();
  takeLock(fromEnv, null);
  const serverSecret = fromEnv.serverSecret ?? devServerSecret(fromEnv.dataDir);
  const sealer = dataVaultSealerOf({ dataVaultSecrets: fromEnv.dataVaultSecrets, serverSecret });
  const database = await openedDatabase(fromEnv);
  const { rewrapped } = await rotateDataVaultKeys(database.db, sealer);
  // Projects' own Stripe keys are sealed with the same secrets (capabilities/payments/domain/stripe-account.ts).
  const stripeKeys = await rotateStripeOwnKeys(database.db, sealer);
  const message = `Data vault: ${rewrapped} data key(s) re-wrapped, and ${stripeKeys} of projects' own Stripe keys; every value is now under key ${sealer.currentKeyId}.`;
  if (fromEnv.production) (await processLogger("json")).info({ rewrapped, stripeKeys, keyId: sealer.currentKeyId }, message);
  else console.log(message);
  await database.close();
  undo.pop();
}

/** One process per PGlite data directory; PostgreSQL needs no lock of ours. */
function takeLock(where: Pick<EnvConfig, "databaseUrl" | "dataDir">, port: number | null): void {
  if (where.databaseUrl) return;
  const taken = lockDataDir(where.dataDir, port);
  lock = taken;
  undo.push(() => taken.release());
}

async function openedDatabase(where: Parameters<typeof openDatabase>[0]): Promise<Database> {
  const database = await openDatabase(where);
  undo.push(() => database.close());
  return database;
}

/** A signal, during the start or after it, closes what is open and exits. */
function stopOn(signals: NodeJS.Signals[]): void {
  const stop = () => {
    if (stopping) return;
    stopping = true;
    void undoAll().finally(() => process.exit(0));
  };
  for (const signal of signals) process.on(signal, stop);
}

async function undoAll(): Promise<void> {
  while (undo.length > 0) {
    try {
      await undo.pop()!();
    } catch (error) {
      logger?.warn({ err: error }, "closing at stop failed");
    }
  }
}
