/** Small images of each type taken, as bytes and as data: URLs, for the image tests. */
import { createHash } from "node:crypto";

const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));

/** A 1×1 transparent PNG. */
export const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  "base64",
);
/** The start of a JPEG (SOI and a JFIF marker): what the type check reads. */
export const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, ...ascii("JFIF"), 0x00]);
export const GIF = Buffer.from([...ascii("GIF89a"), 0x01, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x3b]);
export const WEBP = Buffer.from([...ascii("RIFF"), 0x0c, 0x00, 0x00, 0x00, ...ascii("WEBPVP8 "), 0x00, 0x00, 0x00, 0x00]);

export function dataUrl(type: string, bytes: Buffer): string {
  return `data:${type};base64,${bytes.toString("base64")}`;
}

/** The id of a stored image: the SHA-256 of its bytes. */
export function imageId(bytes: Buffer): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** A PNG data: URL of exactly `length` characters (a PNG signature, then zero bytes). */
export function pngDataUrlOfLength(length: number): string {
  const prefix = "data:image/png;base64,";
  const chars = length - prefix.length;
  if (chars % 4 !== 0) throw new Error("a base64 body is a multiple of 4 characters");
  return prefix + "iVBORw0KGgoA" + "A".repeat(chars - 12);
}
