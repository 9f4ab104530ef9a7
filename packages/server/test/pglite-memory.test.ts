/**
 * PGlite's page cache (shared_buffers) is resident in full, so the embedded
 * database gets a small one (db/connect.ts) unless
 * LATCHKEY_PGLITE_SHARED_BUFFERS raises it; a value PostgreSQL would not take
 * stops the server at start, naming the variable.
 */
import { readFileSync } from "node:fs";
import { describe, expect, inject, it } from "vitest";
import { configFromEnv } from "../src/config.ts";
import { connectDatabase, openPGlite, PGLITE_SHARED_BUFFERS_DEFAULT } from "../src/db/connect.ts";

const env = { STACK_SERVER_SECRET: "x".repeat(32) };

describe("LATCHKEY_PGLITE_SHARED_BUFFERS", () => {
  it("takes a size as PostgreSQL writes it; unset leaves the embedded default", () => {
    expect(configFromEnv(env).pgliteSharedBuffers).toBeNull();
    expect(configFromEnv({ ...env, LATCHKEY_PGLITE_SHARED_BUFFERS: "64MB" }).pgliteSharedBuffers).toBe("64MB");
    expect(configFromEnv({ ...env, LATCHKEY_PGLITE_SHARED_BUFFERS: "512kB" }).pgliteSharedBuffers).toBe("512kB");
  });

  it.each(["lots", "64", "64mb", "64 MB", "-1MB", "64kB", "1.5GB"])("refuses %j, naming the variable", (value) => {
    expect(() => configFromEnv({ ...env, LATCHKEY_PGLITE_SHARED_BUFFERS: value })).toThrow(
      /^LATCHKEY_PGLITE_SHARED_BUFFERS must be a size of at least 128kB written as PostgreSQL does, e\.g\. 64MB or 1GB \(got "/,
    );
  });

  it("sizes the embedded database's shared_buffers: the default, or the value given", async () => {
    for (const [sharedBuffers, shown] of [
      [undefined, PGLITE_SHARED_BUFFERS_DEFAULT],
      ["48MB", "48MB"],
    ] as const) {
      // From the run's migrated template when this project has one (an initdb is slow on a busy machine).
      const template = inject("pgliteTemplate");
      const pglite = template ? await openPGlite({ sharedBuffers, loadDataDir: new Blob([readFileSync(template)]) }) : undefined;
      const database = await connectDatabase({ kind: "pglite", sharedBuffers, pglite });
      try {
        const [row] = (await database.rawTransaction((run) => run("SHOW shared_buffers"))) as { shared_buffers: string }[];
        expect(row!.shared_buffers).toBe(shown);
      } finally {
        await database.close();
      }
    }
  });
});
