/**
 * Everything a request handler may use, built once per server instance.
 * Tests build one per test file against their own database.
 */
import type { Logger } from "pino";
import type { CacheBus } from "./cache/bus.ts";
import type { Caches } from "./cache/caches.ts";
import type { Events } from "./events/transaction.ts";
import type { EmailQueue } from "./domain/emails/queue.ts";
import type { JobRunner } from "./jobs/runner.ts";
import type { EmailSendRateLimit } from "./domain/emails/rate-limit.ts";
import type { SessionActivity } from "./domain/sessions/activity.ts";
import type { ServerConfig } from "./config.ts";
import type { Database, Db } from "./db/connect.ts";
import type { ProjectStore } from "./domain/projects/projects.ts";
import type { SignInRateLimit } from "./domain/auth/password/rate-limit.ts";
import type { AccessTokens } from "./domain/tokens/access-token.ts";
import type { KeyStore } from "./domain/tokens/signing-keys.ts";
import type { Siteverify } from "./integrations/siteverify.ts";
import type { ChatCompletions } from "./integrations/chat-completions.ts";
import type { StripeConnector } from "./integrations/stripe/client.ts";
import type { Housekeeping } from "./domain/housekeeping/housekeeping.ts";
import type { DashboardSite } from "./http/dashboard.ts";
import type { ClientAddresses } from "./http/client-address.ts";
import type { Metrics } from "./lib/metrics.ts";
import type { Readiness } from "./db/readiness.ts";
import type { Clock } from "./lib/clock.ts";
import type { ImageStore } from "./capabilities/images/domain/image-store.ts";
import type { Sealer } from "./capabilities/data-vault/domain/sealer.ts";
import type { ApiKeyUsage } from "./capabilities/user-team-api-keys/domain/usage.ts";

export interface Services {
  config: ServerConfig;
  /** What time it is (lib/clock.ts): the system clock, or a test's clock that the test moves. */
  clock: Clock;
  database: Database;
  db: Db;
  keys: KeyStore;
  tokens: AccessTokens;
  projects: ProjectStore;
  logger: Logger;
  signInRateLimit: SignInRateLimit;
  bus: CacheBus;
  /** Where writes open their transactions and record what happened (events/transaction.ts). */
  events: Events;
  caches: Caches;
  sessionActivity: SessionActivity;
  emails: EmailQueue;
  /** Runs every kind of job, e-mail included, from the table all replicas share (jobs/runner.ts). */
  jobs: JobRunner;
  emailRateLimit: EmailSendRateLimit;
  housekeeping: Housekeeping;
  /** null: bot challenges are off (see ServerConfig.botChallenge). */
  siteverify: Siteverify | null;
  /** The AI assistant's model (capabilities/ai-chat); null when the operator connected none. */
  chatCompletions: ChatCompletions | null;
  /** Stripe, for the payments capability: the operator's platform account and projects' own keys. */
  stripe: StripeConnector;
  /** The dashboard served at / (null: the API alone; see ServerConfig.dashboardDir). */
  dashboard: DashboardSite | null;
  /** The client's address and country behind trusted proxies (ServerConfig.trustedProxies). */
  clientAddresses: ClientAddresses;
  /** What GET /metrics reports (lib/metrics.ts). */
  metrics: Metrics;
  /** What GET /health/ready reports (db/readiness.ts). */
  readiness: Readiness;
  /** Where images written as data: URLs are kept (capabilities/images/). */
  images: ImageStore;
  /** What wraps the data vault's data keys at rest (capabilities/data-vault/domain/sealer.ts). */
  dataVaultSealer: Sealer;
  /** When user and team API keys were last accepted, written behind (capabilities/user-team-api-keys). */
  apiKeyUsage: ApiKeyUsage;
  /** This server's own HTTP app, answering a Request in process (a workflow's calls back to the API: capabilities/workflows). */
  api: { fetch(request: Request): Promise<Response> };
}
