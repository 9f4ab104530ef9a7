/**
 * Prepared queries, built once per database handle. Building a query with
 * drizzle costs more than PostgreSQL takes to run a simple indexed lookup,
 * so the queries on the request path (cache misses) are built once and then
 * only executed with new values. Handles are held weakly: a transaction's
 * copy goes when the transaction does.
 */
import type { DbOrTx } from "./connect.ts";

export function preparedPerDatabase<T>(build: (db: DbOrTx) => T): (db: DbOrTx) => T {
  const built = new WeakMap<DbOrTx, T>();
  return (db) => {
    let query = built.get(db);
    if (query === undefined) built.set(db, (query = build(db)));
    return query;
  };
}
