/**
 * A stand-in for an outside HTTP service on loopback (127.0.0.1, any free
 * port): it records every request as the caller reads it and answers POSTs to
 * its one path (POST unless told) with the JSON the test sets, or never answers, to run the
 * server's timeout out. Anything else is recorded too and answered 404, so a
 * server that calls the wrong place fails its test.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type PeerReply = { status?: number; json: unknown } | "hang";

export interface LoopbackPeer<Request> {
  /** What to configure the server with: the origin followed by `urlPath`. */
  url: string;
  received: Request[];
  /** The answer to the next requests, given what was sent. */
  reply: (request: Request) => PeerReply;
  close(): Promise<void>;
}

export interface LoopbackPeerOptions<Request> {
  /** The path the service answers on, and with which method (POST unless given). */
  path: string;
  method?: string;
  /** The path `url` ends in, where clients add the rest themselves; `path` unless given. */
  urlPath?: string;
  /** What the test sees of a request, from it and its body as text. */
  read: (req: IncomingMessage, body: string) => Request;
  /** The answer until a test sets another. */
  reply: (request: Request) => PeerReply;
}

export async function startLoopbackPeer<Request>(options: LoopbackPeerOptions<Request>): Promise<LoopbackPeer<Request>> {
  const hanging = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    let raw = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (raw += chunk));
    req.on("end", () => {
      const request = options.read(req, raw);
      peer.received.push(request);
      const reply: PeerReply =
        req.method === (options.method ?? "POST") && req.url === options.path
          ? peer.reply(request)
          : { status: 404, json: { error: { message: "not found" } } };
      if (reply === "hang") {
        hanging.add(res);
        return;
      }
      res.writeHead(reply.status ?? 200, { "content-type": "application/json" });
      res.end(JSON.stringify(reply.json));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const peer: LoopbackPeer<Request> = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}${options.urlPath ?? options.path}`,
    received: [],
    reply: options.reply,
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  return peer;
}
