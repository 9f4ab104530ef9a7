/**
 * The SDK's packed packages (ServerConfig.sdkDir; `npm start` packs them with scripts/lib/sdk-build.mjs), served at
 * /sdk/ so an app installs them from the server it talks to, with no registry that has them:
 * `npm install <apiUrl>/sdk/latchkey-js.tgz <apiUrl>/sdk/latchkey-react.tgz`.
 *
 * @latchkey/react's package.json names @latchkey/js by version, as the npm registry resolves it. Served from here it
 * names @latchkey/js by this server's URL instead (rewritten on the way out, as only the server knows its public
 * address): npm then fetches @latchkey/js from here too when it is given react's URL alone, and when given both it
 * sees one package, whatever their order.
 */
import { createHash } from "node:crypto";
import { statSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { packTar, unpackTar } from "modern-tar";
import { emptyResponse, responseHeaders, textResponse } from "./response.ts";

/** The file names served under /sdk/, and the package each holds. */
export const SDK_TARBALLS = {
  "latchkey-js.tgz": "@latchkey/js",
  "latchkey-react.tgz": "@latchkey/react",
} as const;
export type SdkTarballName = keyof typeof SDK_TARBALLS;

const JS_PACKAGE = SDK_TARBALLS["latchkey-js.tgz"];
/** npm packs every file under this folder of the tarball. */
const PACKAGE_JSON = "package/package.json";

interface Prepared {
  /** The packed file's size and time: when either changes (a new build), the served bytes are made again. */
  stamp: string;
  body: Uint8Array<ArrayBuffer>;
  etag: string;
}

export class SdkPackages {
  #prepared = new Map<SdkTarballName, Prepared>();

  /** `dir`: ServerConfig.sdkDir (null: not served, and each request says how to serve them); `apiUrl`: this server's public address. */
  constructor(
    private readonly dir: string | null,
    private readonly apiUrl: string,
  ) {}

  /** The answer to GET (or HEAD, which Hono answers from GET without the body) of /sdk/`name`. */
  async respond(name: string, ifNoneMatch: string | undefined): Promise<Response> {
    if (!Object.hasOwn(SDK_TARBALLS, name)) {
      return textResponse(
        404,
        `Not found: the SDK is served as ${Object.keys(SDK_TARBALLS)
          .map((file) => `/sdk/${file}`)
          .join(" and ")}.`,
      );
    }
    if (this.dir === null) {
      return textResponse(
        404,
        "This server does not serve the SDK's packages: LATCHKEY_SDK_DIR is not set. `npm start` packs them and sets it; a server started otherwise needs LATCHKEY_SDK_DIR set to a directory holding latchkey-js.tgz and latchkey-react.tgz (`npm run build` packs them into dist/sdk).",
      );
    }
    const prepared = await this.prepared(name as SdkTarballName, this.dir);
    if (!prepared) {
      return textResponse(404, `LATCHKEY_SDK_DIR holds no ${name}: run \`npm run build\` (or \`npm start\`) to pack the SDK there.`);
    }
    // No max-age: npm revalidates a cached tarball with If-None-Match on every install, so a rebuilt SDK is picked up.
    const headers = { etag: prepared.etag, "cache-control": "no-cache" };
    if (ifNoneMatch !== undefined && ifNoneMatch.split(",").some((tag) => tag.trim() === prepared.etag)) {
      return emptyResponse(304, headers);
    }
    return new Response(prepared.body, {
      headers: responseHeaders("application/gzip", {
        ...headers,
        "content-length": String(prepared.body.byteLength),
        "content-disposition": `attachment; filename="${name}"`,
      }),
    });
  }

  private async prepared(name: SdkTarballName, dir: string): Promise<Prepared | null> {
    const path = join(dir, name);
    const stat = statSync(path, { throwIfNoEntry: false });
    if (!stat?.isFile()) return null;
    const stamp = `${stat.size}:${stat.mtimeMs}`;
    const known = this.#prepared.get(name);
    if (known?.stamp === stamp) return known;
    const packed = readFileSync(path);
    const body = name === "latchkey-react.tgz" ? await withJsFromHere(packed, `${this.apiUrl}/sdk/latchkey-js.tgz`) : packed;
    const prepared = { stamp, body, etag: `"${createHash("sha256").update(body).digest("base64url")}"` };
    this.#prepared.set(name, prepared);
    return prepared;
  }
}

/** The packed package with its dependency on @latchkey/js (a version in the build) pointed at `jsUrl`. */
async function withJsFromHere(packed: Uint8Array, jsUrl: string): Promise<Uint8Array<ArrayBuffer>> {
  const entries = await unpackTar(gunzipSync(packed), { strict: true });
  const manifest = entries.find((entry) => entry.header.name === PACKAGE_JSON);
  if (!manifest?.data) throw new Error(`The packed @latchkey/react has no ${PACKAGE_JSON}: pack it again with \`npm run build\`.`);
  const pkg = JSON.parse(new TextDecoder().decode(manifest.data)) as { dependencies?: Record<string, string> };
  if (!pkg.dependencies?.[JS_PACKAGE]) throw new Error(`The packed @latchkey/react does not depend on ${JS_PACKAGE}.`);
  pkg.dependencies[JS_PACKAGE] = jsUrl;
  const data = new TextEncoder().encode(`${JSON.stringify(pkg, null, 2)}\n`);
  const rewritten = entries.map((entry) => (entry === manifest ? { header: { ...entry.header, size: data.byteLength }, data } : entry));
  // The same input gives the same bytes (entries keep their times; gzip adds none), so the ETag holds across restarts.
  return gzipSync(await packTar(rewritten));
}
