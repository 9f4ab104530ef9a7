/**
 * A capability is one feature of the product in one folder,
 * `capabilities/<name>/`, registered once in capabilities/index.ts:
 * - `routes/`: its route files, each at the path of the URL it serves, as under
 *   src/routes/ (capabilities/cli-login/routes/auth/cli/poll.ts serves
 *   /auth/cli/poll); route-table.ts finds them through the registry;
 * - `domain/`: what it does, under the same rules as src/domain/;
 * - `schema.ts`: its tables, re-exported by db/schema/index.ts so the
 *   migrations are generated and applied with everyone else's;
 * - `capability.ts`: the registration below, which names the rest.
 * Its wire schemas stay in @latchkey/shared, where the SDK finds them too.
 */
import type { EndpointDefinition } from "@latchkey/shared";
import type { SQL } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import type { DomainEvent, DomainEventType } from "../events/domain-events.ts";
import type { HousekeepingTask } from "../domain/housekeeping/housekeeping.ts";
import type { EventTx } from "../events/transaction.ts";
import type { AnyJobKindDefinition, JobFeeder } from "../jobs/kinds.ts";
import type { Services } from "../services.ts";

export type { HousekeepingTask };

/** What a capability does with the events of some types (events/transaction.ts). */
export interface EventSubscription {
  types: readonly DomainEventType[];
  /** After the commit: only the events of `types`, never an empty list. It must not throw for the writer: a failure is logged. */
  handle?(services: Services, events: readonly DomainEvent[]): void;
  /**
   * In the transaction, after its last write and before its commit: only the events of `types`, never an empty
   * list. What it writes commits with the change or not at all; failing fails the write.
   */
  beforeCommit?(services: Services, tx: EventTx, events: readonly DomainEvent[]): Promise<void>;
  /**
   * Whether an event of `types` stays pending in the outbox for work after the commit (a job feeder's): a SQL
   * condition its insert evaluates (events/transaction.ts, Subscriber.outboxPending).
   */
  outboxPending?(event: DomainEvent): SQL | null;
}

export interface Capability {
  /** Its folder's name under capabilities/. */
  name: string;
  /** The endpoints its routes serve, from @latchkey/shared: exactly these, checked by test/unit/capabilities.test.ts. */
  contract: Readonly<Record<string, EndpointDefinition>>;
  /** Its tables (schema.ts); db/schema/index.ts re-exports them. */
  tables: readonly PgTable[];
  events: { subscribes: readonly EventSubscription[] };
  /** The project settings it reads, as dotted keys of the config schema in @latchkey/shared. */
  configKeys: readonly string[];
  housekeeping: readonly HousekeepingTask[];
  /** The kinds of job it runs (jobs/kinds.ts), registered with the runner once the services exist. */
  jobs: readonly ((services: Services) => AnyJobKindDefinition)[];
  /** What turns its pending outbox events into jobs after the commit (jobs/kinds.ts: JobFeeder). */
  jobFeeders?: readonly ((services: Services) => JobFeeder)[];
}

/** A capability's registration (its capability.ts); listed in capabilities/index.ts. */
export function defineCapability(capability: Capability): Capability {
  return capability;
}
