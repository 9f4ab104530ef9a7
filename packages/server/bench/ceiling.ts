/**
 * The ceiling the scenarios are read against: the bare Hono app (hello-server.ts) in its own process, measured
 * before and after the scenarios, and the two runs as one row.
 */
import { HELLO_ENTRY, WARMUP } from "./config.ts";
import { cannon, type Row } from "./cannon.ts";
import { freePort, startChild, stopChild, waitReady } from "./processes.ts";

export async function hello(): Promise<Row> {
  const port = await freePort();
  const child = startChild("hello server", ["--import", "tsx", HELLO_ENTRY], { ...process.env, PORT: String(port) });
  try {
    const base = `http://127.0.0.1:${port}`;
    await waitReady(`${base}/`, child);
    const pid = child.process.pid!;
    await cannon("warm-up", base, { request: { method: "GET", path: "/" }, pid }, WARMUP);
    return await cannon("hello (bare Hono, the ceiling)", base, { request: { method: "GET", path: "/" }, pid });
  } finally {
    await stopChild(child);
  }
}

/** Two runs of the ceiling, as one row: the mean of each figure (latencies: the worse). */
export function meanCeiling(before: Row, after: Row): Row {
  const mean = (a: number, b: number) => (a + b) / 2;
  return {
    scenario: `hello (bare Hono, the ceiling: mean of ${Math.round(before.rps)} req/s before the scenarios and ${Math.round(after.rps)} after)`,
    rps: mean(before.rps, after.rps),
    p50: Math.max(before.p50, after.p50),
    p99: Math.max(before.p99, after.p99),
    errors: before.errors + after.errors,
    errorDetail: [before.errorDetail, after.errorDetail].filter(Boolean).join(", "),
    serverCpu: mean(before.serverCpu, after.serverCpu),
    loadCpu: mean(before.loadCpu, after.loadCpu),
  };
}
