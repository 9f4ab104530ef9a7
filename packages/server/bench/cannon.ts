/**
 * autocannon runs, with the CPU the server and the load generator used
 * alongside, and the ways a scenario builds its requests.
 */
import autocannon, { type Request as CannonRequest, type Result as CannonResult } from "autocannon";
import { readFileSync } from "node:fs";
import { CONNECTIONS, DURATION } from "./config.ts";

export type { CannonRequest };

// autocannon runs, with the CPU the server and this process used alongside.

export interface Row {
  scenario: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  /** Status codes other than 2xx, socket errors, timeouts. */
  errorDetail: string;
  /** CPU the server process used (1 = one core busy), all its threads. */
  serverCpu: number;
  /** CPU this process (autocannon) used. */
  loadCpu: number;
}

/** CPU seconds (user + system, all threads) a process has used so far; null where /proc is missing. */
function processCpuSeconds(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // Fields 14 and 15 of stat(5) (utime, stime), counted from the state field (3).
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return null;
  }
}
const CLOCK_TICKS = 100;

/**
 * Waits until the process is (nearly) idle: what it was still doing (the
 * e-mail renderer warming up in a worker at start, the write-behind of the
 * previous scenario's sessions) would otherwise be counted against the next
 * scenario. Gives up after 30 s and measures anyway.
 */
async function quiet(pid: number): Promise<void> {
  const deadline = Date.now() + 30_000;
  let calm = 0;
  let last = processCpuSeconds(pid);
  while (last !== null && calm < 2 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    const now = processCpuSeconds(pid);
    if (now === null) return;
    calm = now - last <= 0.25 * 0.05 ? calm + 1 : 0;
    last = now;
  }
}

export async function cannon(
  name: string,
  base: string,
  options: {
    headers?: Record<string, string>;
    request: CannonRequest | CannonRequest[];
    pid: number;
    amount?: number;
    /** Called as the load starts (after the wait for an idle server), e.g. to count what happens from then on. */
    onStart?: () => void;
  },
  seconds = DURATION,
): Promise<Row> {
  await quiet(options.pid);
  options.onStart?.();
  const serverCpu0 = processCpuSeconds(options.pid);
  const ownCpu0 = process.cpuUsage();
  const started = performance.now();
  const result: CannonResult = await autocannon({
    url: base,
    connections: CONNECTIONS,
    ...(options.amount ? { amount: options.amount } : { duration: seconds }),
    timeout: 20,
    headers: options.headers ?? {},
    requests: Array.isArray(options.request) ? options.request : [options.request],
  });
  const ok = result["2xx"];
  const details: string[] = [];
  for (const [code, stat] of Object.entries(result.statusCodeStats)) {
    if (!code.startsWith("2")) details.push(`${stat.count}× ${code}`);
  }
  if (result.errors) details.push(`${result.errors} socket errors`);
  if (result.timeouts) details.push(`${result.timeouts} timeouts`);
  const elapsed = (performance.now() - started) / 1000;
  const serverCpu1 = processCpuSeconds(options.pid);
  const own = process.cpuUsage(ownCpu0);
  return {
    serverCpu: serverCpu0 === null || serverCpu1 === null ? NaN : (serverCpu1 - serverCpu0) / elapsed,
    loadCpu: (own.user + own.system) / 1e6 / elapsed,
    scenario: name,
    rps: ok / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.non2xx + result.errors + result.timeouts,
    errorDetail: details.join(", "),
  };
}

export function roundRobin<T>(items: T[]): () => T {
  let i = 0;
  return () => items[i++ % items.length]!;
}

/**
 * One prepared request per value of a header (e.g. each pool user's token):
 * every connection goes through them in turn. autocannon builds a request
 * without setupRequest once, so the load generator does not spend a core
 * re-serializing requests, as it did with a per-request header: the
 * scenario then measured autocannon as much as the server.
 */
export function eachWithHeader(method: "GET" | "POST", path: string, header: string, values: string[]): CannonRequest[] {
  return values.map((value) => ({ method, path, headers: { [header]: value } }));
}

/**
 * A request that carries a different value of one header each time, across
 * all connections: for scenarios where no value may come twice (each
 * session's first refresh).
 */
export function withHeaderPerRequest(method: "GET" | "POST", path: string, header: string, next: () => string): CannonRequest {
  return { method, path, setupRequest: (req) => ({ ...req, headers: { ...req.headers, [header]: next() } }) };
}

export function jsonPost(path: string, body: () => unknown): CannonRequest {
  return {
    method: "POST",
    path,
    setupRequest: (req) => ({
      ...req,
      headers: { ...req.headers, "content-type": "application/json" },
      body: JSON.stringify(body()),
    }),
  };
}
