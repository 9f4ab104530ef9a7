/**
 * Session `last_used_at`, written behind: refreshes record the time in
 * memory and a timer writes all of them in one statement every few seconds,
 * so a refresh costs no database write. Listing sessions flushes first.
 */
import { sql } from "drizzle-orm";
import type { Db } from "../../db/connect.ts";

type Executor = Pick<Db, "execute">;

const FLUSH_INTERVAL_MILLIS = 5000;
const CHUNK_ROWS = 2000;

export class SessionActivity {
  private pending = new Map<string, { at: Date; ip: string | null }>();
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();

  constructor(private readonly db: Executor) {}

  touch(sessionId: string, ip: string | null, at: Date): void {
    this.pending.set(sessionId, { at, ip });
    this.timer ??= setTimeout(() => {
      this.timer = null;
      void this.flush().catch(() => {});
    }, FLUSH_INTERVAL_MILLIS).unref();
  }

  /**
   * Writes everything pending; resolves when it is in the database. A failed
   * write rejects this call only: its batch goes back into the queue and the
   * next flush tries again.
   */
  flush(): Promise<void> {
    const next = this.flushing.catch(() => {}).then(() => this.write());
    this.flushing = next;
    return next;
  }

  /**
   * One JSON parameter per statement, whatever the batch size (a parameter per
   * value would pass PostgreSQL's limit of 65,535 at ~22k sessions), in chunks
   * so no statement holds many row locks for long. When a chunk fails, it and
   * the chunks after it go back into the queue.
   */
  private async write(): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = [...this.pending];
    this.pending = new Map();
    for (let start = 0; start < batch.length; start += CHUNK_ROWS) {
      try {
        await this.writeChunk(batch.slice(start, start + CHUNK_ROWS));
      } catch (error) {
        // Keep the newer time where the session was used again meanwhile.
        for (const [id, entry] of batch.slice(start)) if (!this.pending.has(id)) this.pending.set(id, entry);
        throw error;
      }
    }
  }

  private async writeChunk(chunk: [string, { at: Date; ip: string | null }][]): Promise<void> {
    const rows = chunk.map(([id, { at, ip }]) => ({ id, at: at.toISOString(), ip }));
    // A session deleted meanwhile simply matches no row; an older use (a
    // retried batch, another replica) never overwrites a newer one's address.
    // tenancy: the batch holds sessions of every project, each named by its id (unique across tenancies)
    await this.db.execute(sql`
      update sessions set
        last_used_at = greatest(sessions.last_used_at, v.at),
        last_used_ip = case when v.at >= sessions.last_used_at then coalesce(v.ip, sessions.last_used_ip) else sessions.last_used_ip end
      from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as v(id uuid, at timestamptz, ip text)
      where sessions.id = v.id`);
  }

  async close(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.flush();
  }
}
