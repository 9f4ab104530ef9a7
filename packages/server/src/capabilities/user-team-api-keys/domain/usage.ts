/**
 * `last_used_at` of user and team API keys, written behind and at most once
 * a minute per key (lib/write-behind.ts): a check that accepts a key notes
 * the time here (no database write on the request path), and a timer writes
 * the noted times a few seconds later. Reads of keys flush first, so they
 * show the checks that came before them.
 */
import { sql } from "drizzle-orm";
import type { Db } from "../../../db/connect.ts";
import { WriteBehind } from "../../../lib/write-behind.ts";

type Executor = Pick<Db, "execute">;

/** A key's use is recorded at most once in this long (on each replica). */
export const API_KEY_USE_RESOLUTION_MILLIS = 60_000;
const FLUSH_INTERVAL_MILLIS = 5000;
/** Keys per statement: one JSON parameter whatever the count, chunked so no statement holds many row locks for long. */
const CHUNK_ROWS = 2000;
/** Keys whose last recorded use is remembered (the least recently recorded leave first). */
const REMEMBERED_KEYS = 100_000;

export class ApiKeyUsage {
  private readonly batch: WriteBehind<number>;

  constructor(db: Executor) {
    this.batch = new WriteBehind({
      writeChunk: (chunk) => writeChunk(db, chunk),
      chunkRows: CHUNK_ROWS,
      flushAfterMillis: FLUSH_INTERVAL_MILLIS,
      oncePerMillis: API_KEY_USE_RESOLUTION_MILLIS,
      rememberedIds: REMEMBERED_KEYS,
    });
  }

  /** Notes that the key was accepted at `now` (milliseconds), unless a use was noted less than a minute before. */
  touch(keyId: string, now: number): void {
    this.batch.mark(keyId, now, now);
  }

  /** Writes everything noted; resolves when it is in the database. What a failed flush did not write is noted again for the next. */
  flush(): Promise<void> {
    return this.batch.flush();
  }

  close(): Promise<void> {
    return this.batch.close();
  }
}

async function writeChunk(db: Executor, chunk: [string, number][]): Promise<void> {
  const rows = chunk.map(([id, at]) => ({ id, at: new Date(at).toISOString() }));
  // A key deleted meanwhile matches no row; an older time (another replica's) never replaces a newer one.
  // tenancy: the batch holds keys of every project, each named by its id (unique across tenancies)
  await db.execute(sql`
    update user_team_api_keys set last_used_at = greatest(user_team_api_keys.last_used_at, v.at)
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as v(id uuid, at timestamptz)
    where user_team_api_keys.id = v.id`);
}
