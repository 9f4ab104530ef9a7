/**
 * The webhook side of the "sign-up-webhooks" scenario: a receiver on loopback in the bench process that answers
 * every delivery 204 and notes when it came, and the bench project's endpoints pointing at it.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { call, expectStatus, type Fixture } from "./setup.ts";

export const WEBHOOK_ENDPOINTS = 3;

export interface BenchReceiver {
  url: string;
  /** performance.now() of each delivery, in arrival order. */
  arrivals: number[];
  /** Resolves once a delivery's body contains `text` at `count` distinct endpoint paths. */
  seen(text: string, count: number): Promise<void>;
  close(): Promise<void>;
}

export async function startBenchReceiver(): Promise<BenchReceiver> {
  const arrivals: number[] = [];
  const seenAt = new Map<string, Set<string>>();
  const waiting: { text: string; count: number; resolve: () => void }[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      arrivals.push(performance.now());
      res.writeHead(204).end();
      if (waiting.length === 0) return;
      const body = Buffer.concat(chunks).toString("utf8");
      for (const wait of [...waiting]) {
        if (!body.includes(wait.text)) continue;
        const paths = seenAt.get(wait.text) ?? new Set();
        seenAt.set(wait.text, paths.add(req.url ?? ""));
        if (paths.size < wait.count) continue;
        waiting.splice(waiting.indexOf(wait), 1);
        wait.resolve();
      }
    });
  });
  // Many deliveries at once from the server's runner: the default backlog is plenty, keep-alive keeps it cheap.
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    arrivals,
    seen: (text, count) => new Promise((resolve) => waiting.push({ text, count, resolve })),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Gives the bench project WEBHOOK_ENDPOINTS endpoints, each at its own path of the receiver (`/1`, `/2`, …), as
 * an owner would: through the Svix-compatible API with the token of POST /webhooks/svix-token.
 */
export async function addEndpoints(base: string, fx: Fixture, receiverUrl: string): Promise<void> {
  const token = await call(base, "/webhooks/svix-token", { method: "POST", headers: fx.admin, body: {} });
  expectStatus(token, 201, "webhooks token");
  const projectId = fx.admin["x-stack-project-id"]!;
  for (let i = 1; i <= WEBHOOK_ENDPOINTS; i++) {
    const res = await fetch(`${token.body.url as string}/api/v1/app/${projectId}/endpoint`, {
      method: "POST",
      headers: { authorization: `Bearer ${token.body.token as string}`, "content-type": "application/json" },
      body: JSON.stringify({ url: `${receiverUrl}/${i}`, description: `benchmark receiver ${i}` }),
    });
    if (res.status !== 201) throw new Error(`webhook endpoint ${i}: ${res.status} ${await res.text()}`);
  }
}

export interface DeliveryFigures {
  /** Deliveries from the load's start until the last one. */
  deliveries: number;
  /** Deliveries while the load ran. */
  duringLoad: number;
  loadSeconds: number;
  /** From the load's start to the last delivery. */
  drainedSeconds: number;
}

/** Counts the receiver's arrivals between `started` and the last (all performance.now()). */
export function deliveryFigures(receiver: BenchReceiver, started: number, loadEnded: number): DeliveryFigures {
  const arrivals = receiver.arrivals.filter((t) => t >= started);
  const last = arrivals.at(-1) ?? loadEnded;
  return {
    deliveries: arrivals.length,
    duringLoad: arrivals.filter((t) => t <= loadEnded).length,
    loadSeconds: (loadEnded - started) / 1000,
    drainedSeconds: (last - started) / 1000,
  };
}
