/**
 * Starting an instance: connect, migrate, seed the internal project and its
 * keys, load signing keys. Shared by `npm start` and the tests.
 */
import { sealLegacyTotpSecrets } from "./domain/auth/mfa/seal-legacy-secrets.ts";
import { migrateLegacyProjectConfigs } from "./domain/config/legacy-migration.ts";
import { Housekeeping } from "./domain/housekeeping/housekeeping.ts";
import { INTERNAL_PROJECT_ID } from "@latchkey/shared";
import { pino, type Logger } from "pino";
import { createApp } from "./app.ts";
import { loadRoutes } from "./route-table.ts";
import { capabilityHousekeeping, capabilityJobFeeders, capabilityJobs, capabilitySubscriptions } from "./capabilities/index.ts";
import type { ServerConfig } from "./config.ts";
import { connectDatabase, type Database, type DatabaseTarget } from "./db/connect.ts";
import { migrate } from "./db/migrate.ts";
import { createKeySet, isValidProjectKey, type ProjectKeyKind } from "./domain/api-keys/project-keys.ts";
import { ProjectStore, ensureInternalProject } from "./domain/projects/projects.ts";
import { AccessTokens } from "./domain/tokens/access-token.ts";
import { loadKeyStore } from "./domain/tokens/signing-keys.ts";
import { CacheBus } from "./cache/bus.ts";
import { Caches } from "./cache/caches.ts";
import type { DomainEvent } from "./events/domain-events.ts";
import { Events } from "./events/transaction.ts";
import { EmailQueue } from "./domain/emails/queue.ts";
import { JobRunner } from "./jobs/runner.ts";
import { EmailSendRateLimit } from "./domain/emails/rate-limit.ts";
import { SessionActivity } from "./domain/sessions/activity.ts";
import { SignInRateLimit } from "./domain/auth/password/rate-limit.ts";
import { httpSiteverify } from "./integrations/siteverify.ts";
import { stripeConnector } from "./integrations/stripe/client.ts";
import { httpChatCompletions } from "./integrations/chat-completions.ts";
import { DashboardSite } from "./http/dashboard.ts";
import { ClientAddresses } from "./http/client-address.ts";
import { Metrics } from "./lib/metrics.ts";
import { Readiness } from "./db/readiness.ts";
import { postgresImageStore } from "./capabilities/images/domain/postgres-store.ts";
import { dataVaultSealerOf } from "./capabilities/data-vault/domain/local-sealer.ts";
import { ApiKeyUsage } from "./capabilities/user-team-api-keys/domain/usage.ts";
import type { Services } from "./services.ts";
import { systemClock, type Clock } from "./lib/clock.ts";

export interface Instance {
  services: Services;
  app: ReturnType<typeof createApp>;
  close(): Promise<void>;
}

export async function startInstance(
  config: ServerConfig,
  /**
   * `clock`: what time it is (lib/clock.ts); the system's unless a test brings its own. `holdsDataDirLock`: this
   * process holds the PGlite data directory's lock (main.ts), so it is the database's only user.
   */
  options: { database?: Database; target?: DatabaseTarget; logger?: Logger; clock?: Clock; holdsDataDirLock?: boolean } = {},
): Promise<Instance> {
  // The route files load while the database starts; a bad one still fails the start where it is awaited.
  const routes = loadRoutes();
  routes.catch(() => {});
  const logger = options.logger ?? pino({ level: process.env.LOG_LEVEL ?? "info" });
  const clock = options.clock ?? systemClock;
  // Checked before the database opens: a bad LATCHKEY_TRUSTED_PROXIES stops the start with nothing done.
  const clientAddresses = new ClientAddresses(config.trustedProxies);
  const metrics = new Metrics();
  const database =
    options.database ??
    (await connectDatabase(
      options.target ??
        (config.databaseUrl
          ? { kind: "postgres", url: config.databaseUrl }
          : {
              kind: "pglite",
              dataDir: config.dataDir,
              sharedBuffers: config.pgliteSharedBuffers ?? undefined,
              fsync: config.pgliteFsync,
            }),
    ));
  const applied = await migrate(database);
  if (applied.length > 0) logger.info({ applied }, "applied migrations");
  const { db } = database;
  await ensureInternalProject(db);
  await seedInternalKeys(db, config, clock.date());
  if (config.passkeyTestChallenge) {
    logger.warn(
      "STACK_ENABLE_HARDCODED_PASSKEY_CHALLENGE_FOR_TESTING is on: passkey answers of projects not in production mode can be replayed. Never use it in production.",
    );
  }
  if (!config.rateLimits) {
    logger.warn(
      "LATCHKEY_RATE_LIMITS is off: sign-in attempts, second factors and e-mail sends are not limited. Use it only for test environments.",
    );
  }
  const sealed = await sealLegacyTotpSecrets(db, config.serverSecret);
  if (sealed > 0) logger.info({ sealed }, "encrypted stored TOTP secrets");
  const migratedProjects = await migrateLegacyProjectConfigs(db, config.serverSecret);
  if (migratedProjects > 0) logger.info({ projects: migratedProjects }, "moved project configs into config overrides");
  const keys = await loadKeyStore(db, config.serverSecret);
  const bus = new CacheBus();
  const caches = new Caches(bus);
  await bus.connect(database);
  const sessionActivity = new SessionActivity(db);
  const apiKeyUsage = new ApiKeyUsage(db);
  const projects = new ProjectStore(db, caches, bus, config.serverSecret);
  // Every kind and feeder registers with the runner before it starts (e-mail: EmailQueue's constructor; the
  // capabilities' once the services exist, below).
  const jobs = new JobRunner(db, clock, logger);
  const emails = new EmailQueue(
    db,
    jobs,
    projects,
    config.email,
    logger,
    clock,
    config.smtpAllowPrivateHosts,
    config.smtpAllowInsecureAuth,
    metrics,
  );
  emails.start();
  const events = new Events(logger);
  bus.subscribeTo(events);
  // Jobs enqueued by a commit wake the runners by notification (jobs/store.ts); mail is not kept waiting for it.
  events.subscribe((recorded) => {
    if (recorded.some((event) => event.type === "email.queued")) jobs.kick();
  });
  const housekeeping = new Housekeeping(db, logger, clock, capabilityHousekeeping());
  housekeeping.start();
  const readiness = new Readiness(database, clock);
  watchOperatingGauges(metrics, database, emails, readiness);
  // The app is built from the services, and the services answer requests through it: bound once it exists.
  let app: ReturnType<typeof createApp> | null = null;
  const services: Services = {
    config,
    clock,
    database,
    db,
    keys,
    tokens: new AccessTokens(keys, config.apiUrl, config.accessTokenExpirationMillis, clock),
    projects,
    logger,
    signInRateLimit: new SignInRateLimit(clock, config.rateLimits),
    bus,
    events,
    caches,
    sessionActivity,
    emails,
    jobs,
    emailRateLimit: new EmailSendRateLimit(clock, config.rateLimits),
    housekeeping,
    siteverify: config.botChallenge ? httpSiteverify(config.botChallenge, logger) : null,
    chatCompletions: config.aiChat ? httpChatCompletions(config.aiChat, logger) : null,
    stripe: stripeConnector(config.stripe),
    dashboard: config.dashboardDir
      ? new DashboardSite(config.dashboardDir, config.seedInternalKeys.publishableClientKey, config.apiUrl)
      : null,
    clientAddresses,
    metrics,
    readiness,
    images: postgresImageStore(db),
    dataVaultSealer: dataVaultSealerOf(config),
    apiKeyUsage,
    api: {
      fetch: async (request) => {
        if (!app) throw new Error("The server's app is not built yet");
        return app.fetch(request);
      },
    },
  };
  for (const subscription of capabilitySubscriptions()) {
    const of = (recorded: readonly DomainEvent[]) => recorded.filter((event) => subscription.types.includes(event.type));
    const outboxPending = subscription.outboxPending;
    events.subscribe({
      outboxPending: outboxPending && ((event) => (subscription.types.includes(event.type) ? outboxPending(event) : null)),
      beforeCommit: async (tx, recorded) => {
        const wanted = of(recorded);
        if (wanted.length > 0) await subscription.beforeCommit?.(services, tx, wanted);
      },
      committed: (recorded) => {
        const wanted = of(recorded);
        if (wanted.length > 0) subscription.handle?.(services, wanted);
      },
    });
  }
  for (const job of capabilityJobs()) jobs.register(job(services));
  for (const feeder of capabilityJobFeeders()) jobs.addFeeder(feeder(services));
  app = createApp(services, await routes);
  // Last: a job run at once (a workflow's) may call the API.
  await jobs.start(database, { holdsDataDirLock: options.holdsDataDirLock });
  return {
    services,
    app,
    close: async () => {
      // Graceful: no new claims, and the handlers running now end before the database closes.
      await jobs.close();
      await housekeeping.close();
      await sessionActivity.close();
      await apiKeyUsage.close();
      await database.close();
    },
  };
}

/** Gauges read when /metrics is scraped: none of them costs anything per request. */
function watchOperatingGauges(metrics: Metrics, database: Database, emails: EmailQueue, readiness: Readiness): void {
  metrics.gauge("latchkey_email_queue_depth", "E-mail messages queued or being sent, on every replica.", () => emails.depth());
  metrics.gauge(
    "latchkey_database_max_connections",
    "Connections this process may open to the database (the postgres.js pool's size; 1 for embedded PGlite).",
    () => database.maxConnections,
  );
  // The readiness answer (db/readiness.ts, cached briefly), so a scrape is also a check of the database.
  metrics.gauge("latchkey_database_ready", "1 when the database answers and every migration is applied, else 0.", async () =>
    (await readiness.check()).ready ? 1 : 0,
  );
}

/** Operators and tests can fix the internal project's keys through the environment. */
async function seedInternalKeys(db: Database["db"], config: ServerConfig, now: Date): Promise<void> {
  const wanted: Partial<Record<ProjectKeyKind, string>> = {};
  const seeds = config.seedInternalKeys;
  if (seeds.publishableClientKey) wanted.publishable_client_key = seeds.publishableClientKey;
  if (seeds.secretServerKey) wanted.secret_server_key = seeds.secretServerKey;
  if (seeds.superSecretAdminKey) wanted.super_secret_admin_key = seeds.superSecretAdminKey;
  const missing: Partial<Record<ProjectKeyKind, string>> = {};
  for (const [kind, value] of Object.entries(wanted) as [ProjectKeyKind, string][]) {
    if (!(await isValidProjectKey(db, INTERNAL_PROJECT_ID, kind, value, now))) missing[kind] = value;
  }
  if (Object.keys(missing).length === 0) return;
  await createKeySet(db, {
    projectId: INTERNAL_PROJECT_ID,
    description: "Seeded from STACK_SEED_INTERNAL_PROJECT_* environment variables",
    expiresAt: null,
    values: missing,
  });
}
