/**
 * PGlite's file system in Node (Emscripten's NODEFS) writes through to the
 * host's files but never makes them durable: its files have no fsync, and its
 * fdatasync does nothing. PostgreSQL's own fsync=on is then a promise nothing
 * keeps, so turning it on alone changes nothing on disk. This file system
 * gives NODEFS an fsync that calls the host's, and `durableStartParams` points
 * PostgreSQL's commits at fsync (not fdatasync) so each commit's WAL reaches
 * the disk before it is acknowledged, and checkpoints sync the data files
 * before the WAL they replace is dropped.
 *
 * PGlite's `relaxedDurability` is no substitute: it only stops PGlite waiting
 * for its own copy-out of an in-memory file system after each query (IndexedDB,
 * OPFS); on NODEFS that copy-out does not exist, so the option changes nothing.
 */
import { fsyncSync } from "node:fs";
import type { PGlite } from "@electric-sql/pglite";
import { NodeFS } from "@electric-sql/pglite/nodefs";

/** The part of Emscripten's NODEFS this reaches into. */
interface NodeFsModule {
  NODEFS: {
    stream_ops: { fsync?: (stream: { nfd: number }) => number };
    /** Runs a host file call, turning a Node error into the errno PostgreSQL sees. */
    tryFSOperation<T>(fn: () => T): T;
  };
}

export class SyncingNodeFS extends NodeFS {
  override async init(pg: PGlite, opts: Parameters<NodeFS["init"]>[1]): ReturnType<NodeFS["init"]> {
    const result = await super.init(pg, opts);
    const preRun = result.emscriptenOpts.preRun ?? [];
    // Before PostgreSQL starts, so a start's crash recovery and its checkpoint are synced too.
    preRun.push((mod) => {
      const { NODEFS } = mod as unknown as NodeFsModule;
      if (typeof NODEFS?.tryFSOperation !== "function" || !NODEFS.stream_ops) {
        throw new Error("This PGlite's file system cannot be made durable: set LATCHKEY_PGLITE_FSYNC=off, or use another PGlite version.");
      }
      NODEFS.stream_ops.fsync = (stream) => {
        NODEFS.tryFSOperation(() => fsyncSync(stream.nfd));
        return 0;
      };
    });
    result.emscriptenOpts.preRun = preRun;
    return result;
  }
}

/** PGlite's start parameters with fsync on: its defaults turn it off (-F). */
export function durableStartParams(defaults: readonly string[]): string[] {
  return [...defaults.filter((param) => param !== "-F"), "-c", "fsync=on", "-c", "wal_sync_method=fsync"];
}
