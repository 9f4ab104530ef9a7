/**
 * A stand-in for the bot challenge verification service on loopback: it
 * records every form it is sent and answers with what the test sets (or
 * never answers, to run the server's timeout out).
 */
import { startLoopbackPeer, type LoopbackPeer, type PeerReply } from "./loopback-peer.ts";

export interface SiteverifyRequest {
  secret: string | null;
  response: string | null;
  remoteip: string | null;
  contentType: string | null;
}

export type SiteverifyReply = PeerReply;

export type SiteverifyPeer = LoopbackPeer<SiteverifyRequest>;

export function startSiteverifyPeer(): Promise<SiteverifyPeer> {
  return startLoopbackPeer<SiteverifyRequest>({
    path: "/turnstile/v0/siteverify",
    read: (req, raw) => {
      const form = new URLSearchParams(raw);
      return {
        secret: form.get("secret"),
        response: form.get("response"),
        remoteip: form.get("remoteip"),
        contentType: req.headers["content-type"] ?? null,
      };
    },
    reply: () => ({ json: { success: false, "error-codes": ["invalid-input-response"] } }),
  });
}

/** What the real service answers for a genuine token made for `action` on a page of `hostname`. */
export function passed(action: string, hostname = "localhost"): SiteverifyReply {
  return { json: { success: true, action, hostname, challenge_ts: new Date().toISOString(), "error-codes": [] } };
}
