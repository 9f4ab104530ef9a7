/**
 * A read made once per transaction and key, shared by the rest of the transaction: a change that records several
 * events of one project reads that project's subscribers (its workflows) once, and reads them in
 * the transaction, so what it sees is what the change commits against.
 */
import type { EventTx } from "./transaction.ts";

export function oncePerTransaction<T>(): (tx: EventTx, key: string, read: () => Promise<T>) => Promise<T> {
  const reads = new WeakMap<EventTx, Map<string, Promise<T>>>();
  return (tx, key, read) => {
    let byKey = reads.get(tx);
    if (!byKey) reads.set(tx, (byKey = new Map()));
    let value = byKey.get(key);
    if (!value) byKey.set(key, (value = read()));
    return value;
  };
}
