/**
 * The few web APIs that React's streaming server renderer expects and
 * QuickJS lacks, written in plain JavaScript so nothing here reaches the host:
 * UTF-8 TextEncoder, a MessageChannel whose messages become tasks in a queue
 * that the host drains (`runTask`), and just enough of ReadableStream for
 * React to write its output into. Runs inside the sandbox, before React loads.
 */

const tasks: Array<() => void> = [];

/** Runs the oldest queued task; false when there was none. Called by the host between microtask rounds. */
export function runTask(): boolean {
  const task = tasks.shift();
  if (!task) return false;
  task();
  return true;
}

class Utf8Encoder {
  readonly encoding = "utf-8";
  encode(input = ""): Uint8Array {
    const text = String(input);
    const out = new Uint8Array(text.length * 3);
    let n = 0;
    for (let i = 0; i < text.length; i++) {
      let c = text.charCodeAt(i);
      if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
        const low = text.charCodeAt(i + 1);
        if (low >= 0xdc00 && low <= 0xdfff) {
          c = 0x10000 + ((c - 0xd800) << 10) + (low - 0xdc00);
          i++;
        }
      }
      if (c >= 0xd800 && c <= 0xdfff) c = 0xfffd; // a lone surrogate, as TextEncoder does
      if (c < 0x80) out[n++] = c;
      else if (c < 0x800) {
        out[n++] = 0xc0 | (c >> 6);
        out[n++] = 0x80 | (c & 63);
      } else if (c < 0x10000) {
        out[n++] = 0xe0 | (c >> 12);
        out[n++] = 0x80 | ((c >> 6) & 63);
        out[n++] = 0x80 | (c & 63);
      } else {
        out[n++] = 0xf0 | (c >> 18);
        out[n++] = 0x80 | ((c >> 12) & 63);
        out[n++] = 0x80 | ((c >> 6) & 63);
        out[n++] = 0x80 | (c & 63);
      }
    }
    return out.slice(0, n);
  }
}

/** Decodes what Utf8Encoder wrote (always well-formed UTF-8). */
export function decodeUtf8(bytes: Uint8Array): string {
  const parts: string[] = [];
  let codes: number[] = [];
  for (let i = 0; i < bytes.length;) {
    const b = bytes[i]!;
    let c: number;
    if (b < 0x80) c = bytes[i++]!;
    else if (b < 0xe0) {
      c = ((b & 31) << 6) | (bytes[i + 1]! & 63);
      i += 2;
    } else if (b < 0xf0) {
      c = ((b & 15) << 12) | ((bytes[i + 1]! & 63) << 6) | (bytes[i + 2]! & 63);
      i += 3;
    } else {
      c = ((b & 7) << 18) | ((bytes[i + 1]! & 63) << 12) | ((bytes[i + 2]! & 63) << 6) | (bytes[i + 3]! & 63);
      i += 4;
    }
    if (c >= 0x10000) {
      c -= 0x10000;
      codes.push(0xd800 + (c >> 10), 0xdc00 + (c & 1023));
    } else codes.push(c);
    if (codes.length >= 4096) {
      parts.push(String.fromCharCode(...codes));
      codes = [];
    }
  }
  parts.push(String.fromCharCode(...codes));
  return parts.join("");
}

/** React uses a MessageChannel only to schedule its work as a task. */
class TaskChannel {
  readonly port1: { onmessage: ((event: { data: unknown }) => void) | null } = { onmessage: null };
  readonly port2: { postMessage(data: unknown): void };
  constructor() {
    const port1 = this.port1;
    this.port2 = {
      postMessage(data: unknown) {
        tasks.push(() => port1.onmessage?.({ data }));
      },
    };
  }
}

interface ByteSource {
  start?(controller: ByteController): void;
  pull?(controller: ByteController): void;
}
interface ByteController {
  enqueue(chunk: Uint8Array): void;
  close(): void;
  error(reason: unknown): void;
  readonly desiredSize: number;
}

/**
 * The part of ReadableStream React's renderer uses: it writes every chunk it
 * has on each pull and closes the stream once the whole document is written.
 */
export class ByteStream {
  #chunks: Uint8Array[] = [];
  #closed = false;
  #failed: { reason: unknown } | null = null;
  #source: ByteSource;
  #controller: ByteController;
  allReady?: Promise<void>;

  constructor(source: ByteSource) {
    this.#source = source;
    const chunks = this.#chunks;
    this.#controller = {
      enqueue: (chunk) => void chunks.push(chunk.slice()),
      close: () => void (this.#closed = true),
      error: (reason) => {
        this.#failed = { reason };
        this.#closed = true;
      },
      desiredSize: 0,
    };
    source.start?.(this.#controller);
  }

  /** Everything written, once the renderer has finished (after `allReady`). */
  readAll(): Uint8Array {
    while (!this.#closed) {
      const before = this.#chunks.length;
      this.#source.pull?.(this.#controller);
      if (!this.#closed && this.#chunks.length === before) throw new Error("The renderer stopped before the document was complete");
    }
    if (this.#failed) throw this.#failed.reason;
    const out = new Uint8Array(this.#chunks.reduce((sum, chunk) => sum + chunk.length, 0));
    let offset = 0;
    for (const chunk of this.#chunks) {
      out.set(chunk, offset);
      offset += chunk.length;
    }
    return out;
  }
}

/** structuredClone for the plain data Tailwind clones (its default config): objects, arrays, maps, sets, dates. */
function cloneData<T>(value: T, seen = new Map<unknown, unknown>()): T {
  if (typeof value === "function" || typeof value === "symbol") throw new TypeError(`${String(value)} could not be cloned`);
  if (typeof value !== "object" || value === null) return value;
  if (seen.has(value)) return seen.get(value) as T;
  let copy: unknown;
  if (value instanceof Date) copy = new Date(value.getTime());
  else if (value instanceof RegExp) copy = new RegExp(value.source, value.flags);
  else if (value instanceof Map) {
    const map = new Map();
    seen.set(value, map);
    for (const [k, v] of value) map.set(cloneData(k, seen), cloneData(v, seen));
    return map as T;
  } else if (value instanceof Set) {
    const set = new Set();
    seen.set(value, set);
    for (const v of value) set.add(cloneData(v, seen));
    return set as T;
  } else {
    const out = (Array.isArray(value) ? [] : {}) as Record<string, unknown>;
    seen.set(value, out);
    for (const key of Object.keys(value)) out[key] = cloneData((value as Record<string, unknown>)[key], seen);
    return out as T;
  }
  seen.set(value, copy);
  return copy as T;
}

const g = globalThis as Record<string, unknown>;
g.structuredClone = cloneData;
g.TextEncoder = Utf8Encoder;
g.MessageChannel = TaskChannel;
g.ReadableStream = ByteStream;

/**
 * arktype lists the web platform's classes as it loads (to name what a value is an instance of); the sandbox
 * has no such objects, so empty classes stand in for the ones QuickJS lacks: no value is ever an instance.
 */
for (const name of ["Blob", "File", "FormData", "Headers", "Request", "Response", "URL"]) {
  g[name] ??= class {};
}
