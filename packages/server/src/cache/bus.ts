/**
 * Keeps every replica's caches coherent through PostgreSQL itself: a write
 * records domain events (events/transaction.ts), whose cache events are sent
 * with pg_notify inside the same transaction — so other replicas hear of them
 * exactly when (and only if) the write commits — and applied to this process
 * right after the commit.
 *
 * A read that began before a write must not put what it read into a cache
 * after the write's event was applied; `generation` lets loaders detect that
 * (see Caches.load).
 */
import { sql } from "drizzle-orm";
import type { Database, DbOrTx } from "../db/connect.ts";
import { cacheEventsOf, type DomainEvent } from "../events/domain-events.ts";
import type { CacheEvent } from "./cache-event.ts";

export const CACHE_CHANNEL = "latchkey_cache";

export class CacheBus {
  /** Bumped on every event; a loader compares it before and after reading. */
  generation = 0;
  private readonly handlers: ((event: CacheEvent) => void)[] = [];

  onEvent(handler: (event: CacheEvent) => void): void {
    this.handlers.push(handler);
  }

  apply(event: CacheEvent): void {
    this.generation++;
    for (const handler of this.handlers) handler(event);
  }

  /** Applies the cache events of committed domain events (subscribed to Events in server.ts). */
  applyDomainEvents(events: readonly DomainEvent[]): void {
    for (const event of events) for (const cacheEvent of cacheEventsOf(event)) this.apply(cacheEvent);
  }

  async connect(database: Database): Promise<void> {
    await database.listen(
      CACHE_CHANNEL,
      (payload) => {
        try {
          this.apply(JSON.parse(payload) as CacheEvent);
        } catch {
          this.apply({ t: "all" });
        }
      },
      () => this.apply({ t: "all" }),
    );
  }
}

/** Sends a cache event (as JSON) to every replica, this one included, when `db`'s transaction commits. */
export async function notifyReplicas(db: DbOrTx, event: string): Promise<void> {
  await db.execute(sql`select pg_notify(${CACHE_CHANNEL}, ${event})`);
}
