/**
 * A webhook receiver on loopback for tests: it keeps every request it gets and answers each with the next
 * status of its script (then 204), so a test decides which attempts fail, and with what body (by default
 * `answer <n>`, n counting the requests).
 */
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface ReceivedWebhook {
  headers: IncomingHttpHeaders;
  body: string;
}

export interface ScriptedAnswer {
  status: number;
  body: string;
}

export interface WebhookReceiver {
  url: string;
  received: ReceivedWebhook[];
  /** The statuses the next requests are answered with, in order; a status with a body answers that body. */
  answer(...answers: (number | ScriptedAnswer)[]): void;
  /** Resolves with the request numbered `count` (1-based) once it has come. */
  request(count: number): Promise<ReceivedWebhook>;
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const script: (number | ScriptedAnswer)[] = [];
  const waiting: { count: number; resolve: (request: ReceivedWebhook) => void }[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const request = { headers: req.headers, body: Buffer.concat(chunks).toString("utf8") };
      received.push(request);
      const next = script.shift() ?? 204;
      const { status, body } = typeof next === "number" ? { status: next, body: `answer ${received.length}` } : next;
      res.writeHead(status, { "content-type": "text/plain" }).end(body);
      for (const wait of waiting.filter((w) => w.count === received.length)) wait.resolve(request);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`,
    received,
    answer: (...answers) => script.push(...answers),
    request: (count) =>
      count <= received.length ? Promise.resolve(received[count - 1]!) : new Promise((resolve) => waiting.push({ count, resolve })),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
