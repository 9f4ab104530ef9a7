/** Raw SQL through either driver: postgres.js answers with the rows, PGlite with `{ rows }`. */
import type { SQL } from "drizzle-orm";
import type { DbOrTx } from "./connect.ts";

export async function queryRows<T extends Record<string, unknown>>(db: DbOrTx, query: SQL): Promise<T[]> {
  const result: unknown = await db.execute(query);
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
}
