/**
 * The SDK's packed packages served at /sdk/ (http/sdk-packages.ts): the files as packed, with a validator npm
 * revalidates against; @latchkey/react's dependency on @latchkey/js pointed at this server; a helpful 404 when the
 * server has none to serve. The tarballs here are made as `npm pack` makes them (a `package/` folder, its fixed
 * times); packages/react/test/packed/install-from-server.test.ts installs real ones with npm.
 */
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { packTar, unpackTar } from "modern-tar";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { SdkPackages } from "../src/http/sdk-packages.ts";
import { createTestServer, type TestServer } from "./harness.ts";

const API_URL = "https://auth.example.com";
/** The time `npm pack` gives every entry, so a tarball's bytes depend on its files alone. */
const NPM_PACK_TIME = new Date("1985-10-26T08:15:00.000Z");

let server: TestServer;
let dir: string;

async function packed(files: Record<string, string>): Promise<Buffer> {
  const entries = Object.entries(files).map(([name, text]) => {
    const data = new TextEncoder().encode(text);
    return { header: { name: `package/${name}`, size: data.byteLength, mtime: NPM_PACK_TIME, mode: 0o644 }, data };
  });
  return gzipSync(await packTar(entries));
}

async function filesOf(tarball: ArrayBuffer): Promise<Record<string, string>> {
  const entries = await unpackTar(gunzipSync(new Uint8Array(tarball)), { strict: true });
  return Object.fromEntries(entries.map((entry) => [entry.header.name, new TextDecoder().decode(entry.data)]));
}

const REACT_MANIFEST = {
  name: "@latchkey/react",
  version: "0.1.0",
  dependencies: { "@latchkey/js": "0.1.0", qrcode: "^1.5.4" },
  peerDependencies: { react: ">=19" },
};

let jsTarball: Buffer;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "latchkey-sdk-packages-"));
  jsTarball = await packed({ "package.json": JSON.stringify({ name: "@latchkey/js", version: "0.1.0" }), "dist/index.js": "export {};\n" });
  writeFileSync(join(dir, "latchkey-js.tgz"), jsTarball);
  writeFileSync(
    join(dir, "latchkey-react.tgz"),
    await packed({ "package.json": JSON.stringify(REACT_MANIFEST, null, 2), "dist/index.js": '"use client";\nexport {};\n' }),
  );
  // A file beside the packages that must never be served.
  writeFileSync(join(dir, "secret.txt"), "not for you");
  server = await createTestServer({ apiUrl: API_URL, sdkDir: dir });
});

afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

const get = (path: string, init: RequestInit = {}, on = server) => on.instance.app.request(`http://localhost${path}`, init);

describe("latchkey-js.tgz", () => {
  test("is the packed file, as gzip, with an ETag of its content, revalidated by npm on each install", async () => {
    const res = await get("/sdk/latchkey-js.tgz");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/gzip");
    expect(res.headers.get("cache-control")).toBe("no-cache");
    expect(res.headers.get("etag")).toMatch(/^"[\w-]{43}"$/);
    expect(Buffer.from(await res.arrayBuffer()).equals(jsTarball)).toBe(true);
  });

  test("HEAD answers the same headers without the body", async () => {
    const full = await get("/sdk/latchkey-js.tgz");
    const head = await get("/sdk/latchkey-js.tgz", { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("etag")).toBe(full.headers.get("etag"));
    expect(head.headers.get("content-length")).toBe(String(jsTarball.byteLength));
    expect(await head.text()).toBe("");
  });

  test("If-None-Match with the current ETag is a 304 without a body; a stale one gets the file", async () => {
    const etag = (await get("/sdk/latchkey-js.tgz")).headers.get("etag")!;
    const fresh = await get("/sdk/latchkey-js.tgz", { headers: { "if-none-match": `"old", ${etag}` } });
    expect(fresh.status).toBe(304);
    expect(fresh.headers.get("etag")).toBe(etag);
    expect(await fresh.text()).toBe("");
    const stale = await get("/sdk/latchkey-js.tgz", { headers: { "if-none-match": '"old"' } });
    expect(stale.status).toBe(200);
    expect((await stale.arrayBuffer()).byteLength).toBe(jsTarball.byteLength);
  });

  test("a package packed again is served at once, under a new ETag", async () => {
    const before = (await get("/sdk/latchkey-js.tgz")).headers.get("etag");
    const path = join(dir, "latchkey-js.tgz");
    const rebuilt = await packed({
      "package.json": JSON.stringify({ name: "@latchkey/js", version: "0.1.0" }),
      "dist/index.js": "export const x = 1;\n",
    });
    writeFileSync(path, rebuilt);
    // Far from the first write's time, whatever the file system's resolution.
    utimesSync(path, new Date(), new Date(Date.now() + 60_000));
    try {
      const res = await get("/sdk/latchkey-js.tgz");
      expect(res.headers.get("etag")).not.toBe(before);
      expect(Buffer.from(await res.arrayBuffer()).equals(rebuilt)).toBe(true);
    } finally {
      writeFileSync(path, jsTarball);
    }
  });
});

describe("latchkey-react.tgz", () => {
  test("depends on @latchkey/js at this server's URL; everything else is as packed", async () => {
    const res = await get("/sdk/latchkey-react.tgz");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/gzip");
    const files = await filesOf(await res.arrayBuffer());
    expect(Object.keys(files)).toEqual(["package/package.json", "package/dist/index.js"]);
    expect(files["package/dist/index.js"]).toBe('"use client";\nexport {};\n');
    expect(JSON.parse(files["package/package.json"]!)).toEqual({
      ...REACT_MANIFEST,
      dependencies: { "@latchkey/js": `${API_URL}/sdk/latchkey-js.tgz`, qrcode: "^1.5.4" },
    });
  });

  test("the same bytes and ETag every time, also after a restart (and on every replica)", async () => {
    const first = await get("/sdk/latchkey-react.tgz");
    const again = await get("/sdk/latchkey-react.tgz");
    // What another process serves: the same files, prepared anew.
    const restarted = await new SdkPackages(dir, API_URL).respond("latchkey-react.tgz", undefined);
    const bytes = Buffer.from(await first.arrayBuffer());
    expect(Buffer.from(await again.arrayBuffer()).equals(bytes)).toBe(true);
    expect(Buffer.from(await restarted.arrayBuffer()).equals(bytes)).toBe(true);
    expect(restarted.headers.get("etag")).toBe(first.headers.get("etag"));
  });
});

describe("what is not served", () => {
  test.each(["/sdk/secret.txt", "/sdk/..%2fsecret.txt", "/sdk/latchkey-shared.tgz"])(
    "%s is a 404 naming the two packages",
    async (path) => {
      const res = await get(path);
      expect(res.status).toBe(404);
      const text = await res.text();
      expect(text).not.toContain("not for you");
      expect(text).toContain("/sdk/latchkey-js.tgz and /sdk/latchkey-react.tgz");
    },
  );

  test("without LATCHKEY_SDK_DIR, each package is a 404 that says how to serve them", async () => {
    const bare = await createTestServer();
    try {
      for (const method of ["GET", "HEAD"]) {
        const res = await get("/sdk/latchkey-js.tgz", { method }, bare);
        expect(res.status).toBe(404);
        if (method === "GET") expect(await res.text()).toMatch(/LATCHKEY_SDK_DIR is not set\. `npm start` packs them and sets it/);
      }
    } finally {
      await bare.close();
    }
  });

  test("a directory without the package says which file is missing", async () => {
    const empty = mkdtempSync(join(tmpdir(), "latchkey-sdk-empty-"));
    try {
      const res = await new SdkPackages(empty, API_URL).respond("latchkey-react.tgz", undefined);
      expect(res.status).toBe(404);
      expect(await res.text()).toContain("LATCHKEY_SDK_DIR holds no latchkey-react.tgz");
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
