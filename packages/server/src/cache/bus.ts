/**
 * Keeps every replica's caches coherent through PostgreSQL itself. The bus
 * subscribes to the domain events (events/transaction.ts): as a write records
 * them, their cache events (cache-events.ts) are sent with pg_notify inside
 * the same transaction — so other replicas hear of them exactly when (and
 * only if) the write commits — and they are applied to this process right
 * after the commit.
 *
 * A read that began before a write must not put what it read into a cache
 * after the write's event was applied; `generation` lets loaders detect that
 * (see Caches.load).
 */
import { sql } from "drizzle-orm";
import type { Database, DbOrTx } from "../db/connect.ts";
import type { DomainEvent } from "../events/domain-events.ts";
import type { Events } from "../events/transaction.ts";
import { cacheEventsOf, type CacheEvent } from "./cache-events.ts";

export type { CacheEvent };

export const CACHE_CHANNEL = "latchkey_cache";

type Handler = (event: CacheEvent) => void;

export class CacheBus {
  /** Bumped on every event that may drop entries; a loader compares it before and after reading. */
  generation = 0;
  private readonly handlers = new Set<Handler>();

  /** `handler` gets every event applied here, from this process or another replica; returns how to stop. */
  onEvent(handler: Handler): () => void {
    // Wrapped, so the same function given twice is called twice and stopped once.
    const wrapped: Handler = (event) => handler(event);
    this.handlers.add(wrapped);
    return () => this.handlers.delete(wrapped);
  }

  apply(event: CacheEvent): void {
    if (event.t !== "marker") this.generation++;
    for (const handler of this.handlers) handler(event);
  }

  /** Applies the cache events of committed domain events. */
  applyDomainEvents(events: readonly DomainEvent[]): void {
    for (const event of events) for (const cacheEvent of cacheEventsOf(event)) this.apply(cacheEvent);
  }

  /** The caches' subscription: what they need of each write is announced to every replica in its transaction, and applied here after it commits. */
  subscribeTo(events: Events): void {
    events.subscribe({
      recorded: async (tx, recorded) => {
        const notices = new Set(recorded.flatMap((event) => cacheEventsOf(event).map((notice) => JSON.stringify(notice))));
        for (const notice of notices) await notifyReplicas(tx, notice);
      },
      committed: (committed) => this.applyDomainEvents(committed),
    });
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
