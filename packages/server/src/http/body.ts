/**
 * Reads the request body by content type. Runs before
 * authentication, so a malformed body is reported as BODY_PARSING_ERROR first.
 */
import { KnownErrors, MAX_REQUEST_BODY_BYTES } from "@latchkey/shared";
import type { HeaderReader } from "./headers.ts";

const utf8 = new TextDecoder("utf-8", { fatal: true });

export async function parseBody(request: Request, headers: HeaderReader): Promise<unknown> {
  if (request.method === "GET" || request.method === "HEAD") return undefined;
  return decodeBody(await readCapped(request, headers), headers);
}

/** A body already read (http/small-bodies.ts, or by parseBody), by its content type: without waiting. */
export function decodeBody(bytes: Uint8Array, headers: HeaderReader): unknown {
  if (bytes.length === 0) return undefined;
  const contentType = (headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (contentType === "application/octet-stream") return bytes;
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    throw new KnownErrors.BodyParsingError("The request body is not valid UTF-8.");
  }
  switch (contentType) {
    case "application/json":
      try {
        return JSON.parse(text);
      } catch {
        throw new KnownErrors.BodyParsingError("The request body is not valid JSON.");
      }
    case "application/x-www-form-urlencoded":
      try {
        return Object.fromEntries(new URLSearchParams(text));
      } catch {
        throw new KnownErrors.BodyParsingError("The request body is not valid form data.");
      }
    case "text/plain":
      return text;
    case "":
      throw new KnownErrors.BodyParsingError(
        "The request has a body but no Content-Type header. Send JSON with Content-Type: application/json.",
      );
    default:
      throw new KnownErrors.BodyParsingError(
        `Unsupported Content-Type ${JSON.stringify(contentType)}: send application/json, application/x-www-form-urlencoded, text/plain or application/octet-stream.`,
      );
  }
}

/** The body's bytes as sent, whatever its content type (a signed webhook's), capped as any body is. */
export async function readBodyBytes(request: Request, headers: HeaderReader): Promise<Uint8Array> {
  return readCapped(request, headers);
}

function tooLarge() {
  return new KnownErrors.BodyParsingError(`The request body is larger than ${MAX_REQUEST_BODY_BYTES / 1024 / 1024} MiB.`);
}

/** The whole body, refused as soon as it is known to be too large: from content-length, or while reading. */
async function readCapped(request: Request, headers: HeaderReader): Promise<Uint8Array> {
  const declared = headers.get("content-length");
  if (Number(declared ?? 0) > MAX_REQUEST_BODY_BYTES) throw tooLarge();
  // A declared length bounds the body (HTTP/1.1 reads exactly that much), so it is read in one go: under
  // Node the adapter then reads the socket's request directly, without building a web Request and stream.
  if (declared !== null && headers.get("transfer-encoding") === null) return new Uint8Array(await request.arrayBuffer());
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_REQUEST_BODY_BYTES) {
      // The rest is drained or the connection closed by the Node adapter.
      await reader.cancel().catch(() => undefined);
      throw tooLarge();
    }
    chunks.push(value);
  }
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size);
}
