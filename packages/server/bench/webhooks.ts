/**
 * The webhook side of the "sign-up-webhooks" scenario: a receiver on loopback in the bench process that answers
 * every delivery 204 and notes when it came, and the bench project's endpoints pointing at it. The server has no
 * route for endpoints yet, so they are written into its database: on PostgreSQL while it runs, on PGlite (one
 * process per data directory) while it is stopped, by the caller's restart. The endpoint secret is sealed with the
 * server secret the bench started the server with.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { sealEndpointSecret } from "../src/capabilities/webhooks/domain/endpoint-secrets.ts";
import { webhookId } from "../src/capabilities/webhooks/domain/ids.ts";
import { newEndpointSecret } from "../src/capabilities/webhooks/domain/signing.ts";
import { webhookEndpoints } from "../src/capabilities/webhooks/schema.ts";
import { connectDatabase } from "../src/db/connect.ts";

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

/** Writes WEBHOOK_ENDPOINTS endpoints of `projectId`, each at its own path of the receiver (`/1`, `/2`, …). */
export async function insertEndpoints(
  where: { databaseUrl: string | null; pgliteDataDir: string },
  serverSecret: string,
  projectId: string,
  receiverUrl: string,
): Promise<void> {
  const database = await connectDatabase(
    where.databaseUrl ? { kind: "postgres", url: where.databaseUrl, max: 1 } : { kind: "pglite", dataDir: where.pgliteDataDir },
  );
  try {
    const now = new Date();
    await database.db.insert(webhookEndpoints).values(
      Array.from({ length: WEBHOOK_ENDPOINTS }, (_, i) => ({
        id: webhookId("ep", now.getTime()),
        projectId,
        url: `${receiverUrl}/${i + 1}`,
        description: `benchmark receiver ${i + 1}`,
        secretSealed: sealEndpointSecret(serverSecret, newEndpointSecret()),
        createdAt: now,
        updatedAt: now,
      })),
    );
  } finally {
    await database.close();
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
