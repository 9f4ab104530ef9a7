/**
 * `last_used_at` of user and team API keys, written behind and at most once
 * a minute per key: a check that accepts a key notes the time here (no
 * database write on the request path), and a timer writes the noted times
 * in one statement a few seconds later. Reads of keys flush first, so they
 * show the checks that came before them.
 */
import { sql } from "drizzle-orm";
import { LRUCache } from "lru-cache";
import type { Db } from "../../../db/connect.ts";

type Executor = Pick<Db, "execute">;

/** A key's use is recorded at most once in this long (on each replica). */
export const API_KEY_USE_RESOLUTION_MILLIS = 60_000;
const FLUSH_INTERVAL_MILLIS = 5000;
/** Keys whose last recorded use is remembered (the least recently recorded leave first). */
const REMEMBERED_KEYS = 100_000;

export class ApiKeyUsage {
  /** key id → when its use was last recorded here. */
  private readonly recorded = new LRUCache<string, number>({ maxSize: REMEMBERED_KEYS, sizeCalculation: () => 1 });
  private pending = new Map<string, number>();
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();

  constructor(private readonly db: Executor) {}

  /** Notes that the key was accepted at `now` (milliseconds), unless a use was noted less than a minute before. */
  touch(keyId: string, now: number): void {
    const last = this.recorded.get(keyId);
    if (last !== undefined && now - last < API_KEY_USE_RESOLUTION_MILLIS) return;
    this.recorded.set(keyId, now);
    this.pending.set(keyId, now);
    this.timer ??= setTimeout(() => {
      this.timer = null;
      void this.flush().catch(() => {});
    }, FLUSH_INTERVAL_MILLIS).unref();
  }

  /** Writes everything noted; resolves when it is in the database. A failed batch is noted again for the next flush. */
  flush(): Promise<void> {
    const next = this.flushing.catch(() => {}).then(() => this.write());
    this.flushing = next;
    return next;
  }

  private async write(): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = [...this.pending];
    this.pending = new Map();
    const rows = batch.map(([id, at]) => ({ id, at: new Date(at).toISOString() }));
    try {
      // A key deleted meanwhile matches no row; an older time (another replica's) never replaces a newer one.
      // tenancy: the batch holds keys of every project, each named by its id (unique across tenancies)
      await this.db.execute(sql`
        update user_team_api_keys set last_used_at = greatest(user_team_api_keys.last_used_at, v.at)
        from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as v(id uuid, at timestamptz)
        where user_team_api_keys.id = v.id`);
    } catch (error) {
      for (const [id, at] of batch) if (!this.pending.has(id)) this.pending.set(id, at);
      throw error;
    }
  }

  async close(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.flush();
  }
}
