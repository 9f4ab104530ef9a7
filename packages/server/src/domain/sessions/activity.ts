/**
 * Session `last_used_at`, written behind (lib/write-behind.ts): refreshes
 * record the time in memory and a timer writes all of them a few seconds
 * later, so a refresh costs no database write. Listing sessions flushes first.
 */
import { sql } from "drizzle-orm";
import type { Db } from "../../db/connect.ts";
import { WriteBehind } from "../../lib/write-behind.ts";

type Executor = Pick<Db, "execute">;

interface Use {
  at: Date;
  ip: string | null;
}

const FLUSH_INTERVAL_MILLIS = 5000;
const CHUNK_ROWS = 2000;

export class SessionActivity {
  private readonly batch: WriteBehind<Use>;

  constructor(db: Executor) {
    this.batch = new WriteBehind({
      writeChunk: (chunk) => writeChunk(db, chunk),
      chunkRows: CHUNK_ROWS,
      flushAfterMillis: FLUSH_INTERVAL_MILLIS,
    });
  }

  touch(sessionId: string, ip: string | null, at: Date): void {
    this.batch.mark(sessionId, { at, ip }, at.getTime());
  }

  /**
   * Writes everything pending; resolves when it is in the database. A failed
   * write rejects this call only: what it did not write goes back into the
   * queue and the next flush tries again.
   */
  flush(): Promise<void> {
    return this.batch.flush();
  }

  close(): Promise<void> {
    return this.batch.close();
  }
}

/**
 * One JSON parameter per statement, whatever the chunk size (a parameter per
 * value would pass PostgreSQL's limit of 65,535 at ~22k sessions).
 */
async function writeChunk(db: Executor, chunk: [string, Use][]): Promise<void> {
  const rows = chunk.map(([id, { at, ip }]) => ({ id, at: at.toISOString(), ip }));
  // A session deleted meanwhile simply matches no row; an older use (a
  // retried batch, another replica) never overwrites a newer one's address.
  // tenancy: the batch holds sessions of every project, each named by its id (unique across tenancies)
  await db.execute(sql`
    update sessions set
      last_used_at = greatest(sessions.last_used_at, v.at),
      last_used_ip = case when v.at >= sessions.last_used_at then coalesce(v.ip, sessions.last_used_ip) else sessions.last_used_ip end
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as v(id uuid, at timestamptz, ip text)
    where sessions.id = v.id`);
}
