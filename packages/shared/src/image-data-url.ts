/**
 * Images sent inline as `data:` URLs (a profile picture, a project logo).
 * Only raster types a browser shows as pictures are taken, and only when the
 * first bytes are those of the declared type: an SVG, or anything else that
 * could carry a script, never gets stored and served from our origin.
 */

/** The image types taken, each with the bytes its content starts with (`null`: any byte). */
const SIGNATURES: Record<string, readonly (readonly (number | null)[])[]> = {
  "image/png": [[0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]],
  "image/jpeg": [[0xff, 0xd8, 0xff]],
  "image/gif": [ascii("GIF87a"), ascii("GIF89a")],
  "image/webp": [[...ascii("RIFF"), null, null, null, null, ...ascii("WEBP")]],
};

/** The Content-Types of the images taken. */
export const IMAGE_CONTENT_TYPES = ["image/png", "image/jpeg", "image/gif", "image/webp"] as const;

/** What the error messages call the types taken. */
export const IMAGE_DATA_URL_TYPES = "PNG, JPEG, GIF or WebP";

export interface ImageData {
  /** One of the types taken, lower-cased (`image/jpg` is read as `image/jpeg`). */
  contentType: string;
  bytes: Uint8Array;
}

function ascii(text: string): number[] {
  return [...text].map((c) => c.charCodeAt(0));
}

const DATA_URL = /^data:([^;,]*)((?:;[^;,]*)*),(.*)$/is;

export function isDataUrl(value: string): boolean {
  return value.slice(0, 5).toLowerCase() === "data:";
}

/** The image a `data:` URL carries, or what is wrong with it (a phrase that follows the field's name). */
export function parseImageDataUrl(value: string): ImageData | { problem: string } {
  const match = DATA_URL.exec(value);
  if (!match || !isDataUrl(value)) return { problem: `must be an image as a data: URL (${IMAGE_DATA_URL_TYPES})` };
  const declared = match[1]!.trim().toLowerCase();
  const contentType = declared === "image/jpg" ? "image/jpeg" : declared;
  const signatures = SIGNATURES[contentType];
  if (!signatures) {
    return { problem: `must be a ${IMAGE_DATA_URL_TYPES} image; ${JSON.stringify(declared || "text/plain")} is not taken` };
  }
  const parameters = match[2]!.split(";").map((p) => p.trim().toLowerCase());
  if (!parameters.includes("base64")) return { problem: "must be a base64-encoded data: URL (data:<type>;base64,…)" };
  const bytes = decodeBase64(match[3]!);
  if (!bytes) return { problem: "is not valid base64 after base64," };
  const matches = signatures.some((signature) => signature.every((byte, i) => byte === null || bytes[i] === byte));
  if (!matches) return { problem: `does not hold a ${contentType} image: its content does not start as one` };
  return { contentType, bytes };
}

function decodeBase64(text: string): Uint8Array | null {
  if (!/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(text)) return null;
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
