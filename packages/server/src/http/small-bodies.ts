/**
 * A small request body, announced by content-length, is read before the request reaches the app and handed to
 * it as `incoming.rawBody`, which the Node adapter then serves in place of the socket. The pipeline parses such a
 * body without waiting (http/body.ts), so a POST whose credentials and answer are cached is answered in the turn
 * its last byte arrived, on the adapter's synchronous path, as a GET is. Larger or chunked bodies stream as before,
 * capped while read.
 */
import type { IncomingMessage, RequestListener } from "node:http";

/** Up to this size a body is read whole before routing: API requests are a few hundred bytes. */
export const SMALL_BODY_BYTES = 64 * 1024;

/** The adapter's name for a body already read (it checks for a Buffer there). */
export interface WithRawBody {
  rawBody?: unknown;
}

export function readingSmallBodies(listener: RequestListener): RequestListener {
  return (incoming, outgoing) => {
    if (!hasSmallBody(incoming)) return void listener(incoming, outgoing);
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    // A client that leaves mid-body is simply gone: no answer is owed, and the error must not be unhandled.
    incoming.once("error", () => undefined);
    incoming.once("end", () => {
      (incoming as WithRawBody).rawBody = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
      void listener(incoming, outgoing);
    });
  };
}

function hasSmallBody(incoming: IncomingMessage): boolean {
  const { method, headers } = incoming;
  if (method === "GET" || method === "HEAD" || headers["transfer-encoding"] !== undefined) return false;
  const length = Number(headers["content-length"] ?? 0);
  return length > 0 && length <= SMALL_BODY_BYTES;
}

/** The body the server read before routing, if it did. */
export function preReadBody(incoming: IncomingMessage | undefined): Buffer | undefined {
  const raw = (incoming as WithRawBody | undefined)?.rawBody;
  return raw instanceof Buffer ? raw : undefined;
}
