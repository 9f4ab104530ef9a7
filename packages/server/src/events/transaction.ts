/**
 * Domain code writes in `events.transaction(db, tx => …)` and records what
 * happened with `record(tx, event)`: the event is written to outbox_events in
 * the transaction, so it exists exactly when the change commits. Consumers
 * (the caches, the job runner) subscribe to the events (Events.subscribe): each may act in the
 * transaction as events are recorded (the caches announce them to other
 * replicas by pg_notify, which PostgreSQL delivers only on commit), and is
 * handed each committed transaction's events after the commit; a rollback
 * hands nothing. A read on this replica that raced the write may have cached
 * what it read before the commit; the caches drop it when the events arrive
 * (cache/caches.ts), so nothing stale outlives the write. Work that may wait
 * for after the commit yet must survive a crash marks the event pending in
 * its own insert (Subscriber.outboxPending) and takes it from the outbox
 * later (the webhook fan-out).
 */
import { sql, type SQL } from "drizzle-orm";
import { PgTransaction } from "drizzle-orm/pg-core";
import type { Logger } from "pino";
import type { Db, Tx } from "../db/connect.ts";
import { outboxEvents } from "../db/schema/index.ts";
import type { DomainEvent } from "./domain-events.ts";

declare const recording: unique symbol;
/** A transaction opened by Events.transaction: events recorded in it are handed on when it commits. */
export type EventTx = Tx & { readonly [recording]: true };

export interface Subscriber {
  /**
   * Whether an event stays pending in the outbox for work after the commit (outbox_events.pending): a condition
   * the event's own insert evaluates, so asking costs no statement. Null: not for this subscriber.
   */
  outboxPending?(event: DomainEvent): SQL | null;
  /**
   * In the transaction, as `record` writes events (each call's, in order): for what must happen exactly when
   * the change commits. Failing fails the write.
   */
  recorded?(tx: EventTx, events: readonly DomainEvent[]): Promise<void>;
  /**
   * In the transaction, after its last write and before its commit: all its events, in the order recorded. For
   * what must describe the change as it commits (workflow runs). Failing fails the write.
   */
  beforeCommit?(tx: EventTx, events: readonly DomainEvent[]): Promise<void>;
  /** After the commit: the transaction's events, in the order recorded. */
  committed?(events: readonly DomainEvent[]): void;
}

interface Recording {
  /** The events recorded so far (a savepoint has its own, added to its parent's on release). */
  events: DomainEvent[];
  subscribers: readonly Subscriber[];
}

/** What each open EventTx recorded, and for whom. */
const recorded = new WeakMap<object, Recording>();

export class Events {
  readonly #subscribers: Subscriber[] = [];

  constructor(private readonly logger: Pick<Logger, "error">) {}

  /** A function is handed each committed transaction's events, in the order recorded (Subscriber.committed). */
  subscribe(subscriber: Subscriber | NonNullable<Subscriber["committed"]>): void {
    this.#subscribers.push(typeof subscriber === "function" ? { committed: subscriber } : subscriber);
  }

  /**
   * Runs `fn` in a transaction of `db`; given an EventTx, in a savepoint of
   * it, whose events count only if it is released and its parent commits.
   */
  async transaction<T>(db: Db | EventTx, fn: (tx: EventTx) => Promise<T>): Promise<T> {
    const parent = recorded.get(db);
    // A transaction's type passes for a Db; its events would be handed on before it commits.
    if (!parent && db instanceof PgTransaction) throw new Error("Open the outer transaction with Events.transaction, not db.transaction");
    const events: DomainEvent[] = [];
    const result = await (db as Db).transaction(async (tx) => {
      recorded.set(tx, { events, subscribers: this.#subscribers });
      const value = await fn(tx as EventTx);
      // A savepoint's events join its parent's, whose commit this is not.
      if (!parent && events.length > 0) {
        for (const subscriber of this.#subscribers) await subscriber.beforeCommit?.(tx as EventTx, events);
      }
      return value;
    });
    if (parent) parent.events.push(...events);
    else this.#deliver(events);
    return result;
  }

  /** Runs `fn` in `db`'s transaction when it is an EventTx (no savepoint), else in a transaction of its own. */
  join<T>(db: Db | EventTx, fn: (tx: EventTx) => Promise<T>): Promise<T> {
    return recorded.has(db) ? fn(db as EventTx) : this.transaction(db, fn);
  }

  #deliver(events: readonly DomainEvent[]): void {
    if (events.length === 0) return;
    for (const subscriber of this.#subscribers) {
      // The write is committed: a failing subscriber must not turn it into an error for the caller.
      try {
        subscriber.committed?.(events);
      } catch (error) {
        this.logger.error({ err: error }, "an event subscriber failed");
      }
    }
  }
}

/** Records events of the change being made in `tx` (see the top of this file). */
export async function record(tx: EventTx, ...events: DomainEvent[]): Promise<void> {
  const open = recorded.get(tx);
  if (!open) throw new Error("record() takes a transaction opened by Events.transaction");
  if (events.length === 0) return;
  await tx.insert(outboxEvents).values(
    events.map((event) => ({
      projectId: event.projectId,
      branchId: event.branchId,
      type: event.type,
      payload: event.data,
      pending: pendingCondition(open.subscribers, event),
    })),
  );
  for (const subscriber of open.subscribers) await subscriber.recorded?.(tx, events);
  open.events.push(...events);
}

/** What the subscribers ask of the event's `pending` column: false when none waits on it, else any of their conditions. */
function pendingCondition(subscribers: readonly Subscriber[], event: DomainEvent): SQL | false {
  const conditions = subscribers.flatMap((subscriber) => subscriber.outboxPending?.(event) ?? []);
  if (conditions.length === 0) return false;
  return conditions.length === 1 ? conditions[0]! : sql`(${sql.join(conditions, sql` or `)})`;
}
