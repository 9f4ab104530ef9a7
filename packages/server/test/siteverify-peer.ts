/**
 * A stand-in for the bot challenge verification service on loopback: it
 * records every form it is sent and answers with what the test sets (or
 * never answers, to run the server's timeout out).
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface SiteverifyRequest {
  secret: string | null;
  response: string | null;
  remoteip: string | null;
  contentType: string | null;
}

export type SiteverifyReply = { status?: number; json: unknown } | "hang";

export interface SiteverifyPeer {
  url: string;
  received: SiteverifyRequest[];
  /** The answer to the next requests, given what was sent. */
  reply: (request: SiteverifyRequest) => SiteverifyReply;
  close(): Promise<void>;
}

export async function startSiteverifyPeer(): Promise<SiteverifyPeer> {
  const hanging = new Set<import("node:http").ServerResponse>();
  const peer: SiteverifyPeer = {
    url: "",
    received: [],
    reply: () => ({ json: { success: false, "error-codes": ["invalid-input-response"] } }),
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  const server: Server = createServer((req, res) => {
    let raw = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (raw += chunk));
    req.on("end", () => {
      const form = new URLSearchParams(raw);
      const request: SiteverifyRequest = {
        secret: form.get("secret"),
        response: form.get("response"),
        remoteip: form.get("remoteip"),
        contentType: req.headers["content-type"] ?? null,
      };
      peer.received.push(request);
      const reply = peer.reply(request);
      if (reply === "hang") {
        hanging.add(res);
        return;
      }
      res.writeHead(reply.status ?? 200, { "content-type": "application/json" });
      res.end(JSON.stringify(reply.json));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  peer.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/turnstile/v0/siteverify`;
  return peer;
}

/** What the real service answers for a genuine token made for `action` on a page of `hostname`. */
export function passed(action: string, hostname = "localhost"): SiteverifyReply {
  return { json: { success: true, action, hostname, challenge_ts: new Date().toISOString(), "error-codes": [] } };
}
